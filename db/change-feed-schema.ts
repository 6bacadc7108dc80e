// The schema side of the change feed (db/sequence.ts), for migrations: a table whose rows a list
// pages "oldest change first" carries change_txn, the transaction that last wrote the row. On
// PostgreSQL the database stamps it: a column default for new rows and, for tables whose rows
// change (their change_seq moves), a trigger when it does. On SQLite it stays 0. A list's index
// names change_txn before the position (change_seq, or the id of a table only added to).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations work on the database as it is then, not on the Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

const currentTxn = 'pg_current_xact_id()::text::bigint';

/** Adds change_txn to an existing table; `changing`: its rows change, so change_seq moves. */
export async function addChangeTxn(db: Kysely<any>, table: string, changing: boolean): Promise<void> {
  // Rows already there are older than every transaction from now on: 0.
  await db.schema
    .alterTable(table)
    .addColumn('change_txn', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (!isPostgres(db)) return;
  await sql`alter table ${sql.table(table)} alter column change_txn set default ${sql.raw(currentTxn)}`.execute(
    db,
  );
  if (changing)
    await sql
      .raw(
        `create trigger ${table}_change_txn before update of change_seq on ${table} for each row execute function change_txn_stamp()`,
      )
      .execute(db);
}

/** The function the triggers call (PostgreSQL), made once, by the migration that first adds change_txn. */
export async function createChangeTxnStamp(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create function change_txn_stamp() returns trigger language plpgsql as $$ begin new.change_txn := ${currentTxn}; return new; end $$`,
    )
    .execute(db);
}
