// SQLite: the attendees' e-mail index goes (issue 29). Addresses arrive in no order, so each new
// ticket's entry landed on an index page of its own: a registration of 50 wrote some 50 pages more,
// a third of its statements' time (in-process, the bench's 60,000 attendees: 1.9 → 1.3 ms a
// transaction). The two lookups by a whole address (the attendee list's e-mail filter and an
// erasure) ask the search index for candidates instead and check the address exactly on them
// (db/attendee-search.ts addressCandidates): it holds every attendee's address already.
// PostgreSQL keeps the index: its planner, asked for the search index's candidates of a common
// address's characters, read both tables whole rather than the trigram index; and without the index
// a registration there was no faster (two interleaved pairs: 8,017 and 7,471 attendees a second
// with it, 7,234 and 7,050 without).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sql`drop index attendees_email`.execute(db);
}
