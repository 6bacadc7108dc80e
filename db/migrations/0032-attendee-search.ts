// Attendee search through an index (issue 29): a search walked the event's rows, 2.9 s at 400,000
// attendees, blocking every other request on SQLite. See db/attendee-search.ts for how each store
// answers. SQLite: attendee_search_text holds each attendee's searched values (and the order's
// reference), kept by triggers on attendees and orders so every writer keeps it (import, transfer,
// erasure); FTS5 indexes it with secure-delete, so a changed or erased value leaves no trigram
// behind. PostgreSQL: pg_trgm and pairs-of-characters GIN indexes on expressions, kept by the store.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { postgresAttendeeText, searchTextSql } from '../attendee-search';
import { isPostgres } from '../dialect';

/** The index text of attendee `a`, with its order's reference. */
const textOf = (a: string) =>
  searchTextSql(a, `(select o.reference from orders o where o.id = ${a}.order_id)`);

const sqliteStatements = [
  `CREATE TABLE attendee_search_text (
     id integer PRIMARY KEY,
     attendee_id text NOT NULL UNIQUE,
     event_id text NOT NULL,
     terms text NOT NULL)`,
  `CREATE VIRTUAL TABLE attendee_search USING fts5(
     terms, content = 'attendee_search_text', content_rowid = 'id', tokenize = 'trigram')`,
  // Removes a changed value's trigrams from the index itself, not only marks them deleted.
  `INSERT INTO attendee_search (attendee_search, rank) VALUES ('secure-delete', 1)`,
  // The index's trigrams, for a 2-character q.
  `CREATE VIRTUAL TABLE attendee_search_terms USING fts5vocab(attendee_search, 'row')`,
  `CREATE TRIGGER attendee_search_text_added AFTER INSERT ON attendee_search_text BEGIN
     INSERT INTO attendee_search (rowid, terms) VALUES (new.id, new.terms); END`,
  `CREATE TRIGGER attendee_search_text_removed AFTER DELETE ON attendee_search_text BEGIN
     INSERT INTO attendee_search (attendee_search, rowid, terms) VALUES ('delete', old.id, old.terms); END`,
  `CREATE TRIGGER attendee_search_text_changed AFTER UPDATE ON attendee_search_text BEGIN
     INSERT INTO attendee_search (attendee_search, rowid, terms) VALUES ('delete', old.id, old.terms);
     INSERT INTO attendee_search (rowid, terms) VALUES (new.id, new.terms); END`,
  `CREATE TRIGGER attendees_search_added AFTER INSERT ON attendees BEGIN
     INSERT INTO attendee_search_text (attendee_id, event_id, terms) VALUES (new.id, new.event_id, ${textOf('new')}); END`,
  `CREATE TRIGGER attendees_search_changed
     AFTER UPDATE OF first_name, last_name, email, company, order_id, event_id ON attendees BEGIN
     UPDATE attendee_search_text SET event_id = new.event_id, terms = ${textOf('new')} WHERE attendee_id = new.id; END`,
  `CREATE TRIGGER attendees_search_removed AFTER DELETE ON attendees BEGIN
     DELETE FROM attendee_search_text WHERE attendee_id = old.id; END`,
  `CREATE TRIGGER orders_search_changed AFTER UPDATE OF reference ON orders BEGIN
     UPDATE attendee_search_text SET terms = ${textOf('attendees')}
     FROM attendees WHERE attendees.order_id = new.id AND attendee_search_text.attendee_id = attendees.id; END`,
  `INSERT INTO attendee_search_text (attendee_id, event_id, terms)
     SELECT a.id, a.event_id, ${textOf('a')} FROM attendees a ORDER BY a.created_utc, a.id`,
];

// Every pair of characters of a text, for a 2-character q (trigram indexes need three).
const postgresPairs = `CREATE FUNCTION attendee_search_pairs(t text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT substr(t, i, 2)), '{}') FROM generate_series(1, length(t) - 1) i $$`;

const postgresStatements = [
  // A trusted extension since PostgreSQL 13: the database's owner may create it.
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  postgresPairs,
  `CREATE INDEX attendees_search_trigrams ON attendees USING gin ((${postgresAttendeeText}) gin_trgm_ops)`,
  'CREATE INDEX orders_reference_trigrams ON orders USING gin (lower(reference) gin_trgm_ops)',
  `CREATE INDEX attendees_search_pairs ON attendees USING gin (attendee_search_pairs(${postgresAttendeeText}))`,
  'CREATE INDEX orders_reference_pairs ON orders USING gin (attendee_search_pairs(lower(reference)))',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of isPostgres(db) ? postgresStatements : sqliteStatements)
    await sql.raw(statement).execute(db);
}
