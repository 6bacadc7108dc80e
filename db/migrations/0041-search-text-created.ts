// SQLite: each attendee's search text carries when the attendee was made (issue 29). A search that
// the newest rows do not answer asked the index for its candidates and then read every one of them
// from the attendees to keep the newest: 17 ms for the 1,111 attendees holding "person123" among
// 400,000, 157 ms for 11,000. With the moment beside the text the index's own rows give the newest
// candidates (1.4 and 7.5 ms), and only those are read (db/attendee-search.ts newestCandidates).
// The text's change trigger now fires on the text alone, so the moment is filled in without the
// FTS5 index being rewritten. PostgreSQL orders its candidates through the attendees' own rows.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { searchTextSql } from '../attendee-search';
import { isPostgres } from '../dialect';

const textOf = (a: string) =>
  searchTextSql(a, `(select o.reference from orders o where o.id = ${a}.order_id)`);

const statements = [
  'DROP TRIGGER attendee_search_text_changed',
  `CREATE TRIGGER attendee_search_text_changed AFTER UPDATE OF terms ON attendee_search_text BEGIN
     INSERT INTO attendee_search (attendee_search, rowid, terms) VALUES ('delete', old.id, old.terms);
     INSERT INTO attendee_search (rowid, terms) VALUES (new.id, new.terms); END`,
  `ALTER TABLE attendee_search_text ADD COLUMN created_utc text NOT NULL DEFAULT ''`,
  `UPDATE attendee_search_text SET created_utc = coalesce(
     (SELECT a.created_utc FROM attendees a WHERE a.id = attendee_search_text.attendee_id), '')`,
  'DROP TRIGGER attendees_search_added',
  `CREATE TRIGGER attendees_search_added AFTER INSERT ON attendees BEGIN
     INSERT INTO attendee_search_text (attendee_id, event_id, created_utc, terms)
       VALUES (new.id, new.event_id, new.created_utc, ${textOf('new')}); END`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const statement of statements) await sql.raw(statement).execute(db);
}
