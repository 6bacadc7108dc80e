// The index behind attendee search, said per store (migration 0032). It answers a superset: the
// attendees whose name, email, company or order reference may contain q. core/attendees checks each
// candidate with the exact rule, so the index decides the cost and never the answer.
// SQLite: FTS5 with the trigram tokenizer over attendee_search_text (one row an attendee, kept by
// triggers: every writer, import and erasure included, with the attendee's created_utc); a
// 2-character q is looked up through the trigrams it begins (the index's vocabulary), each value
// ending in char(1) so a q at the end of a value begins one too. PostgreSQL: pg_trgm GIN indexes on the same text (attendee_search_values,
// one row an attendee, kept by triggers: migration 0039) and on orders.reference, and for a
// 2-character q GIN indexes on the text's pairs of characters.
import { type Expression, sql } from 'kysely';
import { isPostgres } from './dialect';
import type { Db } from './schema';

/**
 * What each store alone has for the search (migrations 0032, 0039): SQLite's text table and FTS5
 * tables (with FTS5's own shadow tables) and its index of whole addresses (migration 0043),
 * PostgreSQL's text table and its trigram and pair indexes, and its B-tree index on the attendees'
 * address (SQLite dropped its own: migration 0042).
 * Everything else of the schema is the same on both.
 */
export const searchStructures = {
  sqliteTables: [
    'attendee_search_text',
    'attendee_search',
    'attendee_search_config',
    'attendee_search_data',
    'attendee_search_docsize',
    'attendee_search_idx',
    'attendee_search_terms',
    'attendee_addresses',
    'attendee_addresses_data',
    'attendee_addresses_idx',
    'attendee_addresses_docsize',
    'attendee_addresses_config',
  ],
  postgresTables: ['attendee_search_values'],
  postgresIndexes: [
    'attendee_search_values_trigrams',
    'orders_reference_trigrams',
    'attendee_search_values_pairs',
    'orders_reference_pairs',
    'attendees_email',
  ],
} as const;

/** Ends each searched value in the index text, so no match spans two values and a value's end is a trigram. */
export const valueEnd = '\u0001';

/**
 * The index text of an attendee, as SQL over the attendee's columns (`a` names them: `new` in a
 * trigger, the table elsewhere) and the order's reference.
 */
export function searchTextSql(a: string, reference: string): string {
  const values = ['first_name', 'last_name', 'email', 'company'].map((c) => `coalesce(${a}.${c}, '')`);
  return [...values, `coalesce(${reference}, '')`].map((v) => `${v} || char(1)`).join(' || ');
}

/**
 * The attendee's own values as PostgreSQL's index text, as SQL over the columns of `a` (a row
 * name, or none): what attendee_search_values holds (migration 0039).
 */
export function postgresSearchText(a?: string): string {
  const values = ['first_name', 'last_name', 'email', 'company'].map(
    (c) => `coalesce(${a ? `${a}.` : ''}${c}, '')`,
  );
  return `lower(${values.join(' || chr(1) || ')})`;
}

/** The expression migration 0032 indexed on the attendees' own rows (moved beside them by 0039). */
export const postgresAttendeeText = postgresSearchText();

/** Characters as the user sees them, not UTF-16 units. */
function characters(text: string): number {
  return [...text].length;
}

/** An FTS5 phrase holding `text` exactly (double quotes doubled). */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The largest code point: a term begun by q sorts at or before q followed by it. */
const lastCharacter = String.fromCodePoint(0x10ffff);

/**
 * SQLite: the FTS5 query for `folded` (q in lower case), or null when no row can match. Three
 * characters or more are one phrase of trigrams; two are the trigrams of the index they begin.
 */
async function sqliteQuery(db: Db, folded: string): Promise<string | null> {
  if (characters(folded) >= 3) return phrase(folded);
  const { rows } = await sql<{ term: string }>`
    select term from attendee_search_terms
    where term >= ${folded} and term <= ${folded + lastCharacter}`.execute(db);
  return rows.length === 0 ? null : rows.map((r) => phrase(r.term)).join(' OR ');
}

/**
 * The ids of the event's attendees that may contain `q` (matched case ignored) in a searched
 * value, as a subquery for `attendees.id in (...)`; null when none can.
 */
export async function searchCandidates(
  db: Db,
  eventId: string,
  q: string,
): Promise<Expression<string> | null> {
  const folded = q.toLowerCase();
  if (isPostgres(db)) return postgresCandidates(eventId, folded);
  return sqliteCandidates(db, eventId, folded);
}

/** SQLite: the ids of the event's (or every event's) attendees whose text may hold `folded`; null when none can. */
async function sqliteCandidates(
  db: Db,
  eventId: string | null,
  folded: string,
): Promise<Expression<string> | null> {
  const match = await sqliteQuery(db, folded);
  if (match === null) return null;
  return sql<string>`select t.attendee_id from ${sqliteMatching(match, eventId)}`;
}

/** SQLite: the event's (or every event's) search texts (`t`) FTS5 matches for `match`, as a FROM and WHERE. */
function sqliteMatching(match: string, eventId: string | null) {
  const ofEvent = eventId === null ? sql`` : sql` and t.event_id = ${eventId}`;
  return sql`attendee_search s join attendee_search_text t on t.id = s.rowid
    where attendee_search match ${match}${ofEvent}`;
}

/**
 * The ids of the attendees (of one event, or of the workspace given null) that may hold the whole
 * address `email`, as a subquery for `attendees.id in (...)`; the caller checks the address exactly
 * on them. SQLite asks attendee_addresses, where an address is one term (migration 0043: a B-tree
 * index cost a registration a page for each new address); PostgreSQL its index on the address.
 */
export function addressCandidates(
  db: Db,
  workspaceId: string,
  eventId: string | null,
  email: string,
): Expression<string> {
  if (isPostgres(db)) {
    const ofEvent = eventId === null ? sql`` : sql` and event_id = ${eventId}`;
    return sql<string>`select id from attendees where workspace_id = ${workspaceId} and email = ${email}${ofEvent}`;
  }
  const ofEvent = eventId === null ? sql`` : sql` and t.event_id = ${eventId}`;
  return sql<string>`select t.attendee_id from attendee_addresses x join attendee_search_text t on t.id = x.rowid
    where attendee_addresses match ${phrase(email)}${ofEvent}`;
}

/**
 * Whether the index counts a q's candidates cheaply, up to a bound: SQLite's FTS5 hands its rows
 * over one by one and stops at the bound; PostgreSQL's GIN index builds the whole bitmap first, so
 * there the count would cost as much as the answer.
 */
export function countsCandidatesCheaply(db: Db): boolean {
  return !isPostgres(db);
}

/**
 * SQLite: the ids of the event's attendees that may contain `q`, newest first and at most `most`
 * of them, when they are no more than `few` (counted no further: FTS5 hands its rows over one by
 * one); 'many' when there are more. One statement: counted and ordered apart, the index answered
 * the same phrase twice (at 400,000 attendees, "person123": 1.8 → 1.3 ms in-process).
 */
export async function fewNewestCandidates(
  db: Db,
  eventId: string,
  q: string,
  few: number,
  most: number,
): Promise<string[] | 'many'> {
  const match = await sqliteQuery(db, q.toLowerCase());
  if (match === null) return [];
  const { rows } = await sql<{ id: string; n: number }>`
    with c as materialized (
      select t.attendee_id as id, t.created_utc as created from ${sqliteMatching(match, eventId)}
      limit ${few + 1})
    select id, (select count(*) from c) as n from c order by created desc, id desc limit ${most}`.execute(db);
  if (Number(rows[0]?.n ?? 0) > few) return 'many';
  return rows.map((r) => r.id);
}

/**
 * The ids of the event's attendees that may contain `q`, as searchCandidates names them, newest
 * first (by when they were made, then id) and at most `most` of them; null when none can. SQLite
 * orders them by the moment its search text carries (migration 0041), without reading the
 * attendees; PostgreSQL reads each candidate's moment from its attendee.
 */
export async function newestCandidates(
  db: Db,
  eventId: string,
  q: string,
  most: number,
): Promise<string[] | null> {
  if (isPostgres(db)) {
    // Each candidate's moment looked up by its key: joined, the planner read the whole table once
    // the candidates were estimated many (a hash join), whatever the event's size.
    const { rows } = await sql<{ id: string }>`
      select c.id from (${postgresCandidates(eventId, q.toLowerCase())}) as c (id)
      order by (select a.created_utc from attendees a where a.id = c.id) desc, c.id desc
      limit ${most}`.execute(db);
    return rows.map((r) => r.id);
  }
  const match = await sqliteQuery(db, q.toLowerCase());
  if (match === null) return null;
  const { rows } = await sql<{ id: string }>`
    select t.attendee_id as id from ${sqliteMatching(match, eventId)}
    order by t.created_utc desc, t.attendee_id desc limit ${most}`.execute(db);
  return rows.map((r) => r.id);
}

function postgresCandidates(eventId: string, folded: string): Expression<string> {
  if (characters(folded) >= 3) {
    const pattern = `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<string>`
      select attendee_id from attendee_search_values
      where event_id = ${eventId} and terms like ${pattern}
      union
      select a.id from orders o join attendees a on a.order_id = o.id
      where o.event_id = ${eventId} and a.event_id = ${eventId} and lower(o.reference) like ${pattern}`;
  }
  const pair = sql`array[${folded}]::text[]`;
  return sql<string>`
    select attendee_id from attendee_search_values
    where event_id = ${eventId} and attendee_search_pairs(terms) @> ${pair}
    union
    select a.id from orders o join attendees a on a.order_id = o.id
    where o.event_id = ${eventId} and a.event_id = ${eventId} and attendee_search_pairs(lower(o.reference)) @> ${pair}`;
}
