// Attendee search through an index (issue 29, migration 0032): the same answers as the LIKE over
// five columns it replaced, edge cases included, on both stores; the index serves the search (the
// plan names it); and an erased or changed value leaves nothing behind in the index's tables.
import { type Expression, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { addressCandidates, searchCandidates } from '../../db/attendee-search';
import { isPostgres } from '../../db/dialect';
import { eventBody } from '../support/fixtures';
import { addTicketType, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let people: string;
let summit: string;
/** The seeded attendees, in edgeValues' order. */
let seededIds: string[] = [];

/** Values given to sample attendees (by id order), to search for. */
const edgeValues = [
  { first_name: 'Jürgen', last_name: 'Müller', email: 'j.mueller@example.test', company: 'Fizzy' },
  { first_name: 'Åsa', last_name: 'ÅSA', email: 'asa%percent@example.test', company: 'x_y Ltd' },
  { first_name: 'Back', last_name: 'Sl\\ash', email: 'back_slash@example.test', company: null },
  { first_name: 'McDonald', last_name: 'MacDONALD', email: 'MixedCase@Example.TEST', company: 'ab' },
  { first_name: 'Oldname', last_name: 'Renamed', email: 'renamed@example.test', company: 'Q"uote' },
  { first_name: 'Cancel', last_name: 'Ledperson', email: 'cancelled@example.test', company: 'Gone Co' },
  { first_name: 'Qwyzz', last_name: 'Erasable', email: 'qwyzz.erasable@example.test', company: 'Þórðúñø' },
  // Given a new address after it was indexed.
  { first_name: 'Moving', last_name: 'House', email: 'old.zebra+tag@example.test', company: null },
];

const queries = [
  'zq', // 2 characters, no match
  'om', // 2 characters at the end of a value
  'ab',
  'ee',
  'Mü',
  'müller',
  'MÜLLER',
  'ÅSA',
  'åsa',
  'asa',
  '%p',
  'a%p',
  '_y',
  'x_y',
  'k_s',
  '\\a',
  'l\\a',
  'mcdonald',
  'MACdon',
  'mixedcase@example',
  'example.test',
  '@ex',
  'ledperson',
  'Oldname',
  'Newname',
  'Qwyzz',
  'q"u',
  '"u',
  'zqxjvw', // no match
  'ample', // in every email: more than a page
];

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Search index workspace', true));
  ({ key: people } = await t.key({ workspaceId, scopes: ['attendees:read', 'people:read'] }));
  summit = sampleIds(workspaceId).event('summit');
  const db = t.server.services.db;
  // One attendee of each of the first orders, each a different person: an erasure or a change of one
  // never reaches another.
  const attendees = (
    await db
      .selectFrom('attendees')
      .select(['id', 'order_id', 'email'])
      .where('event_id', '=', summit)
      .where('status', '=', 'active')
      // The sample's erased attendee comes first in id order for some workspace ids.
      .where('erased', '=', 0)
      .orderBy('id')
      .execute()
  )
    // Of distinct people too: erasing a person erases every ticket sent to the same address.
    .filter((a, i, all) => all.findIndex((b) => b.order_id === a.order_id || b.email === a.email) === i);
  for (const [i, values] of edgeValues.entries())
    await db.updateTable('attendees').set(values).where('id', '=', attendees[i]!.id).execute();
  // Changed after it was indexed: found by its new value only.
  await db
    .updateTable('attendees')
    .set({ first_name: 'Newname' })
    .where('id', '=', attendees[4]!.id)
    .execute();
  await db
    .updateTable('attendees')
    .set({ email: 'new.zebra+tag@example.test' })
    .where('id', '=', attendees[7]!.id)
    .execute();
  await db
    .updateTable('attendees')
    .set({ status: 'cancelled', cancelled_utc: new Date().toISOString() })
    .where('id', '=', attendees[5]!.id)
    .execute();
  await erasePerson(await operatorContext(t.server.services, workspaceId), { attendeeId: attendees[6]!.id });
  // The seeding took, read back at once: a later miss of a seeded value then names what changed it.
  const seeded = await db
    .selectFrom('attendees')
    .select(['id', 'first_name', 'status', 'erased'])
    .where('id', 'in', [attendees[0]!.id, attendees[4]!.id, attendees[5]!.id, attendees[6]!.id])
    .orderBy('id')
    .execute();
  expect(seeded.map((r) => [r.first_name, r.status, r.erased])).toEqual([
    ['Jürgen', 'active', 0],
    ['Newname', 'active', 0],
    ['Cancel', 'cancelled', 0],
    [null, 'active', 1],
  ]);
  seededIds = attendees.slice(0, 8).map((a) => a.id);
});
afterAll(async () => t.close());

/** The search as it was before the index: a LIKE over five columns of the event's rows. */
async function likeSearch(q: string, limit: number, eventId = summit): Promise<string[]> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<{ id: string }>`
    select a.id from attendees a join orders o on o.id = a.order_id
    where a.event_id = ${eventId} and a.erased = 0
      and (lower(a.first_name) like ${pattern} escape '\\' or lower(a.last_name) like ${pattern} escape '\\'
        or lower(a.email) like ${pattern} escape '\\' or lower(a.company) like ${pattern} escape '\\'
        or lower(o.reference) like ${pattern} escape '\\')
    order by a.created_utc desc, a.id desc limit ${limit}`.execute(t.server.services.db);
  return rows.map((r) => r.id);
}

async function search(q: string, limit?: number, eventId = summit): Promise<string[]> {
  const res = await t.api(
    `/events/${eventId}/attendees/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`,
    { key: people },
  );
  expect(res.status, q).toBe(200);
  return res.body.data.map((a: { attendeeId: string }) => a.attendeeId);
}

/** The ids the index names for q (a superset of the answer). */
async function candidates(q: string): Promise<Set<string>> {
  const db = t.server.services.db;
  const subquery = await searchCandidates(db, summit, q);
  if (subquery === null) return new Set();
  const { rows } = await sql<{ id: string }>`select id from attendees where id in (${subquery})`.execute(db);
  return new Set(rows.map((r) => r.id));
}

/**
 * PostgreSQL's plan of a candidate query. A sample event is small enough that its event_id indexes
 * (and a scan) cost less than the trigram index, so they are put out of the way in a transaction
 * that is rolled back: what is left proves the query's expressions are those the indexes are on.
 */
async function planWithoutEventIndexes(query: Expression<unknown> | null): Promise<string> {
  let plan = '';
  await t.server.services.db
    .transaction()
    .execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows: indexes } = await sql<{ table: string; name: string; constraint: string | null }>`
        select c.relname as "table", i.relname as name, k.conname as "constraint"
        from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
        left join pg_constraint k on k.conindid = x.indexrelid
        where c.relname in ('attendees', 'orders') and pg_get_indexdef(x.indexrelid) like '%event_id%'`.execute(
        trx,
      );
      for (const { table, name, constraint } of indexes)
        await (constraint
          ? sql`alter table ${sql.table(table)} drop constraint ${sql.ref(constraint)} cascade`
          : sql`drop index ${sql.ref(name)}`
        ).execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
      plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      throw new Error('rolled back');
    })
    .catch((e: Error) => {
      if (e.message !== 'rolled back') throw e;
    });
  return plan;
}

describe('attendee search through the index', () => {
  it('gives the same answers as the LIKE it replaced, edge cases included', async () => {
    const found = new Map<string, number>();
    for (const q of queries) {
      for (const limit of [undefined, 100]) {
        const expected = await likeSearch(q, limit ?? 25);
        expect(await search(q, limit), `q=${q} limit=${limit}`).toEqual(expected);
        found.set(q, expected.length);
      }
    }
    // The seeded values are found (or not) as the old rule says; the seeding took. Should one be
    // missed, its row as it is now says what changed it since the seeding (read back above).
    const now = await t.server.services.db
      .selectFrom('attendees')
      .select(['id', 'event_id', 'first_name', 'last_name', 'status', 'erased'])
      .where('id', 'in', seededIds)
      .execute();
    const rowsNow = JSON.stringify(now);
    expect(found.get('müller'), `müller; the seeded rows now: ${rowsNow}`).toBe(1);
    expect(found.get('Newname'), `Newname; the seeded rows now: ${rowsNow}`).toBe(1);
    expect(found.get('Oldname'), 'Oldname').toBe(0);
    expect(found.get('Qwyzz'), 'Qwyzz').toBe(0);
    expect(found.get('ledperson'), 'ledperson').toBe(1);
    expect(found.get('ample'), 'ample').toBe(100);
  });

  it('has the index name every attendee the rule matches, for a 2-character q too', async () => {
    const db = t.server.services.db;
    const { reference } = await db
      .selectFrom('orders')
      .select('reference')
      .where('event_id', '=', summit)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (const q of [...queries, reference, reference.slice(1, 4).toLowerCase(), reference.slice(-2)]) {
      const all = await likeSearch(q, 100_000);
      const named = await candidates(q);
      for (const id of all) expect(named.has(id), `q=${q} misses ${id}`).toBe(true);
    }
  });

  it('(PostgreSQL) names the same pairs of every text as the function its indexes were first built with', async () => {
    // Migration 0044 lists a text's pairs unsorted, repeats kept: index entries made before it stay
    // right only if each text's set of pairs is unchanged (a GIN index keeps each element once).
    const db = t.server.services.db;
    if (!isPostgres(db)) return;
    // pg_temp belongs to one connection: both statements on the same one.
    const { rows } = await db.connection().execute(async (conn) => {
      await sql`CREATE FUNCTION pg_temp.pairs_sorted(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT
      AS $$ SELECT coalesce(array_agg(DISTINCT substr(t, i, 2)), '{}') FROM generate_series(1, length(t) - 1) i $$`.execute(
        conn,
      );
      const edges = ['', 'a', 'ab', 'aaaa', 'abab', 'müller-müller', `x${String.fromCharCode(1)}y`, 'ⅫⅫ ok'];
      return sql<{ texts: number; differ: number }>`
      with texts as (select terms as t from attendee_search_values
                     union all select lower(reference) from orders
                     union all select unnest(${edges}::text[]))
      select count(*)::int as texts,
             count(*) filter (where not (attendee_search_pairs(t) @> pg_temp.pairs_sorted(t)
                                         and pg_temp.pairs_sorted(t) @> attendee_search_pairs(t)))::int as differ
      from texts`.execute(conn);
    });
    expect(rows[0]!.texts).toBeGreaterThan(100);
    expect(rows[0]!.differ).toBe(0);
  });

  it('is served by the index: the plan reads the trigram index, not the event', async () => {
    const db = t.server.services.db;
    for (const q of ['müller', 'om']) {
      const subquery = await searchCandidates(db, summit, q);
      if (isPostgres(db)) {
        const plan = await planWithoutEventIndexes(subquery);
        expect(plan).toMatch(
          q.length >= 3 ? /attendee_search_values_trigrams/ : /attendee_search_values_pairs/,
        );
        expect(plan).toMatch(q.length >= 3 ? /orders_reference_trigrams/ : /orders_reference_pairs/);
      } else {
        const { rows } = await sql<{ detail: string }>`explain query plan ${subquery}`.execute(db);
        const plan = rows.map((r) => r.detail).join('\n');
        expect(plan).toMatch(/SCAN s VIRTUAL TABLE INDEX \d+:M/);
        expect(plan).not.toMatch(/SCAN (attendees|t)\b/);
      }
    }
  });
});

describe('the index after an erasure and a change (SQLite: FTS5 tables)', () => {
  it('holds nothing of an erased or replaced value, not even in its shadow tables', async () => {
    const db = t.server.services.db;
    const gone = ['qwyzz', 'erasable', 'þórðúñø', 'oldname', 'old.zebra'];
    const table = isPostgres(db) ? 'attendee_search_values' : 'attendee_search_text';
    const { rows: text } = await sql<{ terms: string }>`select terms from ${sql.table(table)}`.execute(db);
    expect(text.length).toBeGreaterThan(5);
    for (const word of gone) expect(text.filter((r) => r.terms.toLowerCase().includes(word))).toEqual([]);
    // PostgreSQL's old row versions go with the table's own (erasure-everywhere); the rest is FTS5's.
    if (isPostgres(db)) return;
    // Every trigram of the removed values is gone from the index's vocabulary and from its pages.
    const trigrams = gone.flatMap((w) => [...Array(w.length - 2).keys()].map((i) => w.slice(i, i + 3)));
    const unique = trigrams.filter((g) => !text.some((r) => r.terms.toLowerCase().includes(g)));
    expect(unique.length).toBeGreaterThan(8);
    const { rows: terms } = await sql<{ term: string }>`select term from attendee_search_terms`.execute(db);
    for (const g of unique) expect(terms.map((r) => r.term)).not.toContain(g);
    const { rows: blocks } = await sql<{ block: Uint8Array | null }>`
      select block from attendee_search_data`.execute(db);
    const pages = blocks.map((b) => Buffer.from(b.block ?? []).toString('latin1')).join('\n');
    // Terms in a page share a prefix with the one before: their last two characters are always there.
    const tails = unique
      .map((g) => g.slice(1))
      .filter((p) => !text.some((r) => r.terms.toLowerCase().includes(p)));
    expect(tails.length).toBeGreaterThan(3);
    for (const tail of tails) expect(pages.includes(Buffer.from(tail).toString('latin1')), tail).toBe(false);
    // The index of whole addresses (0043): a term is stored after the part it shares with the one
    // before it, and no other address begins as these do.
    const { rows: addressBlocks } = await sql<{ block: Uint8Array | null }>`
      select block from attendee_addresses_data`.execute(db);
    const addressPages = addressBlocks.map((b) => Buffer.from(b.block ?? []).toString('latin1')).join('\n');
    expect(addressPages).toContain('zebra+tag@example.test');
    for (const tail of ['zz.erasable@', 'd.zebra+tag@'])
      expect(addressPages.includes(tail), tail).toBe(false);
  });
});

describe('whole addresses', () => {
  /** The attendees of `eventId` (or of the workspace given null) the address index names for `email`. */
  async function named(email: string, eventId: string | null = summit): Promise<string[]> {
    const db = t.server.services.db;
    const subquery = addressCandidates(db, workspaceId, eventId, email);
    const { rows } = await sql<{ id: string }>`select id from attendees where id in (${subquery})`.execute(
      db,
    );
    return rows.map((r) => r.id);
  }

  it('names an attendee by its whole address, and by a new address only once changed', async () => {
    expect(await named('j.mueller@example.test')).toEqual([seededIds[0]]);
    expect(await named('j.mueller@example.test', null)).toEqual([seededIds[0]]);
    expect(await named('new.zebra+tag@example.test')).toEqual([seededIds[7]]);
    expect(await named('old.zebra+tag@example.test')).toEqual([]);
    expect(await named('qwyzz.erasable@example.test')).toEqual([]);
    // A part of an address, or an address holding it, is another term (SQLite) or another value.
    expect(await named('mueller@example.test')).toEqual([]);
    expect(await named('j.mueller@example.test.uk')).toEqual([]);
  });

  it('is served by an index: the plan reads it, not the event', async () => {
    const db = t.server.services.db;
    const subquery = addressCandidates(db, workspaceId, summit, 'j.mueller@example.test');
    const { rows } = isPostgres(db)
      ? await sql<{ detail: string }>`explain (format text) ${subquery}`.execute(db).then((r) => ({
          rows: r.rows.map((row) => ({ detail: Object.values(row).join('') })),
        }))
      : await sql<{ detail: string }>`explain query plan ${subquery}`.execute(db);
    const plan = rows.map((r) => r.detail).join('\n');
    if (isPostgres(db)) expect(plan).toMatch(/attendees_email/);
    else {
      expect(plan).toMatch(/SCAN x VIRTUAL TABLE INDEX \d+:M/);
      expect(plan).not.toMatch(/SCAN (attendees|t)\b/);
    }
  });
});

describe('a search the newest 1,000 attendees do not answer', () => {
  // The index's newest candidates are read first, twice the page (db/attendee-search.ts
  // newestCandidates); all of them only when too many of those fail the rule.
  let eventId: string;
  let reference: string;
  let kept: string;

  beforeAll(async () => {
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    eventId = (await t.api('/events', { key, method: 'POST', body: eventBody() })).body.eventId;
    const ticketTypeId = await addTicketType(t, eventId);
    const people = (n: number, company: string) =>
      Array.from({ length: n }, () => person(ticketTypeId, { company }));
    // The oldest: one order of three, then 60 people of one company, 5,100 of another (more
    // candidates than the index is asked for at once on SQLite), then 1,000 newer ones.
    const first = await register(t, key, eventId, people(3, 'Zebracorp'));
    expect(first.status).toBe(201);
    reference = first.body.reference;
    for (const n of [50, 10])
      expect((await register(t, key, eventId, people(n, 'Yakworks'))).status).toBe(201);
    for (let i = 0; i < 102; i++)
      expect((await register(t, key, eventId, people(50, 'Filler'))).status).toBe(201);
    for (let i = 0; i < 20; i++)
      expect((await register(t, key, eventId, people(50, 'Late'))).status).toBe(201);
    // The order's two newest attendees erased: still named by the index through the order's
    // reference, and refused by the rule.
    const order = await t.server.services.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', eventId)
      .where('company', '=', 'Zebracorp')
      .orderBy('created_utc', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const operator = await operatorContext(t.server.services, workspaceId);
    for (const { id } of order.slice(0, 2)) await erasePerson(operator, { attendeeId: id });
    kept = order[2]!.id;
  });

  it('answers as the LIKE from the newest candidates, and from all when the newest fail the rule', async () => {
    expect(reference).toMatch(/\S/);
    for (const [q, limit] of [
      [reference, 1],
      [reference, 25],
      ['zebracorp', 1],
      ['yakworks', 25],
      ['yakworks', 100],
      ['yak', 7],
      ['ya', 30],
      ['filler', 25],
      ['late', 25],
      ['example', 100],
    ] as const) {
      const expected = await likeSearch(q, limit, eventId);
      expect(await search(q, limit, eventId), `q=${q} limit=${limit}`).toEqual(expected);
    }
    // The reference's two newest candidates are erased: the answer came from all of them.
    expect(await search(reference, 1, eventId)).toEqual([kept]);
    expect((await search('yakworks', 100, eventId)).length).toBe(60);
  });
});
