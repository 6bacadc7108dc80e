// SQLite cannot add a CHECK constraint (or drop a NOT NULL or a table constraint) to an existing
// table: the table is made anew with the change and its rows copied over, as SQLite's own
// documentation describes ("Making Other Kinds Of Table Schema Changes"). Run inside one
// transaction with foreign keys off (see withForeignKeysOff), so the old table's drop cascades
// nothing and references from other tables land on the new one.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations work on the database as it is then, not on the Database type.
import { type Kysely, sql } from 'kysely';

export interface TableChange {
  /** name -> SQL boolean expression; each becomes `constraint "<table>_<name>" check (...)`. */
  checks?: Record<string, string>;
  /** Edits the table's CREATE statement before the checks are added (drop a NOT NULL, a constraint). */
  edit?: (createSql: string) => string;
  /** Columns of the old table not carried over. */
  dropColumns?: string[];
}

export async function rebuildTable(db: Kysely<any>, table: string, change: TableChange): Promise<void> {
  const found = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const createSql = found.rows[0]?.sql;
  if (!createSql) throw new Error(`No table ${table} to rebuild.`);
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(
    db,
  );

  let ddl = (change.edit ?? ((s: string) => s))(createSql);
  const checks = Object.entries(change.checks ?? {}).map(
    ([name, expression]) => `constraint "${table}_${name}" check (${expression})`,
  );
  if (checks.length > 0) ddl = ddl.replace(/\)\s*$/, `, ${checks.join(', ')})`);
  const renamed = ddl.replace(/^create table\s+("?)[A-Za-z_]+\1/i, `create table "${table}__new"`);
  if (renamed === ddl) throw new Error(`Cannot read the CREATE statement of ${table}.`);
  await sql.raw(renamed).execute(db);

  const columns = (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows
    .map((c) => c.name)
    .filter((name) => !(change.dropColumns ?? []).includes(name));
  const list = columns.map((c) => `"${c}"`).join(', ');
  await sql.raw(`insert into "${table}__new" (${list}) select ${list} from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${table}__new" rename to "${table}"`).execute(db);
  for (const index of indexes.rows) {
    const dropped = (change.dropColumns ?? []).some((c) => index.sql.includes(`"${c}"`));
    if (!dropped) await sql.raw(index.sql).execute(db);
  }
}

/**
 * Runs table rebuilds in one transaction with foreign keys off (the pragma has no effect inside
 * a transaction), and refuses to commit when any reference no longer holds.
 */
export async function withForeignKeysOff(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<void>) {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await work(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0)
        throw new Error(`Foreign keys broken by the migration: ${JSON.stringify(broken.rows.slice(0, 5))}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
