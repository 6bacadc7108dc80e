// Row triggers that keep running totals (migration 0033), said once for both stores: SQLite takes the
// statements inline, PostgreSQL needs a function per trigger. Both run them in the writer's
// transaction, so every writer counts (this process, another one, the CLI, an import, an erasure).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations work on the database as it is then, not on the Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Slots a hot total is spread over on PostgreSQL: the slot is the connection's, so transactions in
 * flight on different connections add to different rows and never wait on one row's lock. Readers
 * sum the slots. SQLite has one writer at a time: one slot.
 */
export const totalsSlots = 8;

/** The slot a trigger adds to, as SQL. */
export function totalsSlot(db: Kysely<any>): string {
  return isPostgres(db) ? `(pg_backend_pid() % ${totalsSlots})` : '0';
}

/**
 * A trigger that runs statements for each changed row (`when`: `AFTER INSERT ON t`, ...), only when
 * `condition` (on OLD and NEW) holds.
 */
export async function createRowTrigger(
  db: Kysely<any>,
  trigger: { name: string; when: string; condition?: string; statements: string[] },
): Promise<void> {
  const { name, when, condition, statements } = trigger;
  const body = statements.map((s) => `${s};`).join(' ');
  if (!isPostgres(db)) {
    const only = condition ? `WHEN ${condition}` : '';
    await sql.raw(`CREATE TRIGGER ${name} ${when} FOR EACH ROW ${only} BEGIN ${body} END`).execute(db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`)
    .execute(db);
  const only = condition ? `WHEN (${condition})` : '';
  await sql.raw(`CREATE TRIGGER ${name} ${when} FOR EACH ROW ${only} EXECUTE FUNCTION ${name}()`).execute(db);
}

/**
 * Adds rows of (keys..., amounts...) to a totals table: `select` gives them in that column order
 * (a SELECT with FROM/WHERE, or VALUES). A key seen for the first time makes its row.
 */
export function addToTotals(table: string, keys: string[], amounts: string[], select: string): string {
  const set = amounts.map((a) => `${a} = ${table}.${a} + excluded.${a}`).join(', ');
  return `INSERT INTO ${table} (${[...keys, ...amounts].join(', ')}) ${select} ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${set}`;
}
