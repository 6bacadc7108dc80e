// SQLite cannot add a CHECK constraint (or drop a NOT NULL or a table constraint) to an existing
// table: the table is made anew with the change and its rows copied over, as SQLite's own
// documentation describes ("Making Other Kinds Of Table Schema Changes"). Run inside a
// transaction with foreign keys off (see withForeignKeysOff), so the old table's drop cascades
// nothing and references from other tables land on the new one. PostgreSQL changes the table in
// place (alter table), to the same end.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations work on the database as it is then, not on the Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

export interface TableChange {
  /** name -> SQL boolean expression; each becomes `constraint "<table>_<name>" check (...)`. */
  checks?: Record<string, string>;
  /** Unique constraints of the table (by name, over a list of columns) that go. */
  dropUniqueConstraints?: string[];
  /** Columns that may be null from now on. */
  dropNotNull?: string[];
  /** Columns of the old table not carried over. */
  dropColumns?: string[];
  /** Columns whose own CHECK (declared with the column) goes; PostgreSQL names it `<table>_<column>_check`. */
  dropColumnChecks?: string[];
  /** Named checks an earlier change added (`checks`: `<table>_<name>`) that go, to be replaced. */
  dropChecks?: string[];
}

/** The table's CREATE statement with the constraints and NOT NULLs the change drops taken out. */
function editedDdl(createSql: string, change: TableChange): string {
  let ddl = createSql;
  for (const name of change.dropUniqueConstraints ?? []) {
    const without = ddl.replace(new RegExp(`,\\s*constraint "${name}" unique \\([^)]*\\)`, 'i'), '');
    if (without === ddl) throw new Error(`No unique constraint ${name} to drop.`);
    ddl = without;
  }
  for (const column of change.dropNotNull ?? []) {
    const without = ddl.replace(new RegExp(`"${column}" (\\w+) not null`, 'i'), `"${column}" $1`);
    if (without === ddl) throw new Error(`No NOT NULL on ${column} to drop.`);
    ddl = without;
  }
  for (const column of change.dropColumnChecks ?? []) {
    // The check's expression may hold one level of brackets: `check ("c" in ('a', 'b'))`.
    const check = new RegExp(`("${column}" [^,]*?) check \\((?:[^()]|\\([^()]*\\))*\\)`, 'i');
    const without = ddl.replace(check, '$1');
    if (without === ddl) throw new Error(`No CHECK on ${column} to drop.`);
    ddl = without;
  }
  for (const name of change.dropChecks ?? []) {
    const check = new RegExp(`,\\s*constraint "${name}" check \\((?:[^()]|\\([^()]*\\))*\\)`, 'i');
    const without = ddl.replace(check, '');
    if (without === ddl) throw new Error(`No check ${name} to drop.`);
    ddl = without;
  }
  return ddl;
}

async function alterTable(db: Kysely<any>, table: string, change: TableChange): Promise<void> {
  for (const name of change.dropUniqueConstraints ?? [])
    await sql.raw(`alter table "${table}" drop constraint "${name}"`).execute(db);
  for (const column of change.dropNotNull ?? [])
    await sql.raw(`alter table "${table}" alter column "${column}" drop not null`).execute(db);
  for (const column of change.dropColumns ?? [])
    await sql.raw(`alter table "${table}" drop column "${column}"`).execute(db);
  for (const column of change.dropColumnChecks ?? [])
    await sql.raw(`alter table "${table}" drop constraint "${table}_${column}_check"`).execute(db);
  for (const name of change.dropChecks ?? [])
    await sql.raw(`alter table "${table}" drop constraint "${name}"`).execute(db);
  for (const [name, expression] of Object.entries(change.checks ?? {}))
    await sql
      .raw(`alter table "${table}" add constraint "${table}_${name}" check (${expression})`)
      .execute(db);
}

export async function rebuildTable(db: Kysely<any>, table: string, change: TableChange): Promise<void> {
  if (isPostgres(db)) return alterTable(db, table, change);
  const found = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const createSql = found.rows[0]?.sql;
  if (!createSql) throw new Error(`No table ${table} to rebuild.`);
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(
    db,
  );

  let ddl = editedDdl(createSql, change);
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
 * Runs table rebuilds with foreign keys off and refuses to go on when any reference no longer
 * holds. Migrations run inside the one transaction of db/migrate.ts, which turns foreign keys off
 * before it begins (the pragma has no effect inside a transaction); outside one, this makes its own.
 */
export async function withForeignKeysOff(
  db: Kysely<any>,
  work: (trx: Kysely<any>) => Promise<void>,
  /**
   * The tables whose references the rebuild could break, when no other table refers to them: only
   * these are checked after it (a database whose other rows already break a reference still migrates).
   */
  only?: string[],
) {
  // PostgreSQL changes tables in place: its references keep holding throughout.
  if (isPostgres(db)) return db.isTransaction ? work(db) : db.transaction().execute(work);
  if (db.isTransaction) {
    const on = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    // With them on, dropping the old table would cascade its deletes into the tables referring to it.
    if (on.rows[0]?.foreign_keys !== 0)
      throw new Error('Table rebuilds need foreign keys off before the transaction begins (db/migrate.ts).');
    await work(db);
    await checkForeignKeys(db, only);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await work(trx);
      await checkForeignKeys(trx, only);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function checkForeignKeys(db: Kysely<any>, only?: string[]): Promise<void> {
  const broken = only
    ? (
        await Promise.all(only.map((t) => sql`select * from pragma_foreign_key_check(${t})`.execute(db)))
      ).flatMap((r) => r.rows)
    : (await sql`pragma foreign_key_check`.execute(db)).rows;
  if (broken.length > 0)
    throw new Error(`Foreign keys broken by the migration: ${JSON.stringify(broken.slice(0, 5))}`);
}

/**
 * Moves a table aside (to `<table>__old`) before a new one of the same name is made from its rows.
 * On PostgreSQL a table's constraints keep their names when it is renamed, and those names are
 * the schema's: they move aside too, so the new table can take them.
 */
export async function moveTableAside(db: Kysely<any>, table: string): Promise<string> {
  const aside = `${table}__old`;
  await sql.raw(`alter table "${table}" rename to "${aside}"`).execute(db);
  if (isPostgres(db)) {
    const constraints = await sql<{ name: string }>`
      select conname as name from pg_constraint where conrelid = ${aside}::regclass`.execute(db);
    for (const { name } of constraints.rows)
      await sql.raw(`alter table "${aside}" rename constraint "${name}" to "${name}__old"`).execute(db);
  }
  return aside;
}
