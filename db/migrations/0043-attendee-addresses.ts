// SQLite: whole addresses found through an index of their own (issue 29). Since 0042 the list's
// e-mail filter and erasure asked the trigram index for an address's candidates, and a trigram
// names more attendees the larger the event (the bench's "person12-0@example.org": 0.3 ms at
// 10,000 attendees, 2.0 ms at 400,000, in-process). attendee_addresses holds each address as one
// term (FTS5's unicode61 with the characters an address may hold as token characters), so a lookup
// is one term's short list in each segment. An FTS5 index appends each transaction's terms as a
// segment of its own and merges later, so it costs a registration of 50 about 0.1 ms where the
// B-tree index 0042 dropped cost 0.6 ms (each random address a page of its own). Its content is
// the address copied into the search text's row, kept by the same triggers: FTS5 removes a term
// only when told the value it indexed, and with secure-delete an erased address leaves nothing in
// the index's pages (a contentless table only marks the row deleted until a merge).
// PostgreSQL keeps its B-tree index on the address.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { searchTextSql } from '../attendee-search';
import { isPostgres } from '../dialect';

const textOf = (a: string) =>
  searchTextSql(a, `(select o.reference from orders o where o.id = ${a}.order_id)`);

const statements = [
  'ALTER TABLE attendee_search_text ADD COLUMN email text',
  `UPDATE attendee_search_text SET email = (SELECT a.email FROM attendees a WHERE a.id = attendee_search_text.attendee_id)`,
  // Every character RFC 5322 allows unquoted in an address is part of a term, so an address is one.
  `CREATE VIRTUAL TABLE attendee_addresses USING fts5(email, content = 'attendee_search_text',
     content_rowid = 'id', tokenize = "unicode61 remove_diacritics 0 tokenchars '!#$%&''*+-/=?^_\`{|}~.@'")`,
  `INSERT INTO attendee_addresses (attendee_addresses, rank) VALUES ('secure-delete', 1)`,
  `INSERT INTO attendee_addresses (attendee_addresses) VALUES ('rebuild')`,
  'DROP TRIGGER attendees_search_added',
  `CREATE TRIGGER attendees_search_added AFTER INSERT ON attendees BEGIN
     INSERT INTO attendee_search_text (attendee_id, event_id, created_utc, email, terms)
       VALUES (new.id, new.event_id, new.created_utc, new.email, ${textOf('new')}); END`,
  'DROP TRIGGER attendees_search_changed',
  `CREATE TRIGGER attendees_search_changed
     AFTER UPDATE OF first_name, last_name, email, company, order_id, event_id ON attendees BEGIN
     UPDATE attendee_search_text SET event_id = new.event_id, email = new.email, terms = ${textOf('new')}
       WHERE attendee_id = new.id; END`,
  'DROP TRIGGER attendee_search_text_added',
  `CREATE TRIGGER attendee_search_text_added AFTER INSERT ON attendee_search_text BEGIN
     INSERT INTO attendee_search (rowid, terms) VALUES (new.id, new.terms);
     INSERT INTO attendee_addresses (rowid, email) VALUES (new.id, new.email); END`,
  'DROP TRIGGER attendee_search_text_removed',
  `CREATE TRIGGER attendee_search_text_removed AFTER DELETE ON attendee_search_text BEGIN
     INSERT INTO attendee_search (attendee_search, rowid, terms) VALUES ('delete', old.id, old.terms);
     INSERT INTO attendee_addresses (attendee_addresses, rowid, email) VALUES ('delete', old.id, old.email); END`,
  `CREATE TRIGGER attendee_search_text_readdressed AFTER UPDATE OF email ON attendee_search_text BEGIN
     INSERT INTO attendee_addresses (attendee_addresses, rowid, email) VALUES ('delete', old.id, old.email);
     INSERT INTO attendee_addresses (rowid, email) VALUES (new.id, new.email); END`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const statement of statements) await sql.raw(statement).execute(db);
}
