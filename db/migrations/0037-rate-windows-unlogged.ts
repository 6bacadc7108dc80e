// The shared call counters (rate_windows, migration 0017) unlogged on PostgreSQL (issue 29): every
// call of a key adds to that key's one row, and its lock was held until the commit had flushed
// write-ahead log, so the eight scanners of one door queued on it. An unlogged table writes no log:
// the row is free again as soon as the statement ends. A crash empties it, which only opens every
// key's window afresh. SQLite keeps its counters in memory and never uses the table.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table rate_windows set unlogged`.execute(db);
}
