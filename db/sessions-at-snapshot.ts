// What a read showing settled changes (db/sequence.ts settledChanges) must take with its snapshot:
// the sessions' table. Apart from sequence.ts so that the read snapshot (read-snapshot.ts, which the
// connection opens) needs nothing of the statements' preparation.
import { sql } from 'kysely';
import { sendWithNext } from './deferred-statements';
import { isPostgres } from './dialect';
import type { Db } from './schema';

// The sessions as of a read's snapshot: PostgreSQL copies the sessions' table (with each one's
// running transaction) once per transaction, when a statement first looks at it, and keeps the copy
// to the end. A page's statement is often not its transaction's first (the event is read first, and
// fixes the snapshot): a transaction of another database running at the snapshot that ended before
// the page's statement would then be missing from the sessions and count as this database's, holding
// back every change above it. The backends' ids take the copy as pg_stat_activity does, without
// building its rows (a third of a millisecond of the server's time a page).
const sessionsAtSnapshot = 'select count(*) as sessions_at_snapshot from pg_stat_get_backend_idset()';
sendWithNext(sessionsAtSnapshot);

/**
 * Has a read transaction about to show settled changes (db/sequence.ts settledChanges) read the sessions with its
 * snapshot, in its first statement. Costs no round trip: it goes with the read's first statement
 * (db/deferred-statements.ts). SQLite: nothing.
 */
export async function sessionsWithSnapshot(trx: Db): Promise<void> {
  if (isPostgres(trx)) await sql`${sql.raw(sessionsAtSnapshot)}`.execute(trx);
}
