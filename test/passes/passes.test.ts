// Season passes and bundles (spec "Passes"): the list (communityId and eventId
// filters, the latter matching the sales event and the events admitted to; latest change first;
// cursors), the single pass (ETag, 304, 404 for unknown ids and for another workspace's), and
// sold, waiting, left and the PassEvent counts checked against the holders behind them, counted
// here straight from the database.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/platform/ids';
import { nextChangeSeq } from '../../db/sequence';
import { expectProblem } from '../support/fixtures';
import { callTool, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { passIds } from './passes-support';

let t: TestServer;
let workspaceId: string;
let reader: string;
let ids: ReturnType<typeof passIds>;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Passes workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['tickets:read'] }));
  ids = passIds(workspaceId);
});
afterAll(async () => t.close());

/** Marks a pass as changed now, as the organiser's app does when it edits one. */
async function touchPass(passId: string): Promise<void> {
  const db = t.server.services.db;
  await db
    .updateTable('passes')
    .set({ updated_utc: new Date().toISOString(), change_seq: await nextChangeSeq(db) })
    .where('id', '=', passId)
    .execute();
}

/** What the spec says a pass counts, computed here from the rows (not through the service). */
async function expectedCounts(passId: string) {
  const db = t.server.services.db;
  const pass = await db.selectFrom('passes').selectAll().where('id', '=', passId).executeTakeFirstOrThrow();
  const holders = await db
    .selectFrom('pass_holders')
    .innerJoin('orders', 'orders.id', 'pass_holders.order_id')
    .select(['pass_holders.id as id', 'pass_holders.status as status', 'orders.status as order_status'])
    .where('pass_id', '=', passId)
    .execute();
  const active = holders.filter((h) => h.status === 'active');
  const sold = active.filter((h) => ['paid', 'free'].includes(h.order_status)).length;
  const waiting = active.filter((h) =>
    ['pending', 'onAccount', 'transfer', 'requested'].includes(h.order_status),
  ).length;
  const optOuts = await db.selectFrom('pass_opt_outs').selectAll().execute();
  const events = await sql<{ event_id: string; name: string; starts_utc: string; source: string }>`
    select pe.event_id, e.name, e.starts_utc, pe.source from pass_events pe join events e on e.id = pe.event_id
    where pe.pass_id = ${passId} order by e.starts_utc`.execute(db);
  return {
    capacity: pass.capacity,
    sold,
    waiting,
    left: Math.max(0, pass.capacity - sold - waiting),
    events: events.rows.map((e) => {
      const optedOut = active.filter((h) =>
        optOuts.some((o) => o.holder_id === h.id && o.event_id === e.event_id),
      ).length;
      return {
        eventId: e.event_id,
        name: e.name,
        startsUtc: e.starts_utc,
        holders: active.length,
        optedOut,
        heldSeats: Math.max(0, pass.capacity - optedOut),
        source: e.source,
      };
    }),
  };
}

describe('GET /passes', () => {
  it('lists the season pass and the bundle, latest change first', async () => {
    const res = await t.api('/passes', { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const kinds = res.body.data.map((p: any) => p.kind).sort();
    expect(kinds).toEqual(['bundle', 'season']);
    await touchPass(ids.pass('season'));
    expect((await t.api('/passes', { key: reader })).body.data.map((p: any) => p.passId)).toEqual([
      ids.pass('season'),
      ids.pass('bundle'),
    ]);
    await touchPass(ids.pass('bundle'));
    expect((await t.api('/passes', { key: reader })).body.data.map((p: any) => p.passId)).toEqual([
      ids.pass('bundle'),
      ids.pass('season'),
    ]);
  });

  it('pages with cursor and limit in the same order', async () => {
    const all = (await t.api('/passes', { key: reader })).body.data.map((p: any) => p.passId);
    const { items, pages } = await walkPages(t, reader, '/passes?limit=1');
    expect(pages).toBe(all.length);
    expect(items.map((p) => p.passId)).toEqual(all);
  });

  it('filters by communityId', async () => {
    const season = (await t.api(`/passes/${ids.pass('season')}`, { key: reader })).body;
    expect(season.communityId).toMatch(/^[0-9a-f-]{36}$/);
    const res = await t.api(`/passes?communityId=${season.communityId}`, { key: reader });
    expect(res.body.data.map((p: any) => p.passId)).toEqual([ids.pass('season')]);
    const none = await t.api(`/passes?communityId=${newId()}`, { key: reader });
    expect(none.body.data).toEqual([]);
  });

  it('filters by eventId: passes the event sells, and passes that admit to it', async () => {
    const byEvent = async (key: 'summit' | 'meetup' | 'forum' | 'remote' | 'past') =>
      (await t.api(`/passes?eventId=${ids.event(key)}`, { key: reader })).body.data
        .map((p: any) => p.passId)
        .sort();
    // The summit sells the bundle and is admitted to by the season pass's range.
    expect(await byEvent('summit')).toEqual([ids.pass('bundle'), ids.pass('season')].sort());
    // The forum only admits bundle holders; the meetup sells the season pass.
    expect(await byEvent('forum')).toEqual([ids.pass('bundle')]);
    expect(await byEvent('meetup')).toEqual([ids.pass('season')]);
    expect(await byEvent('past')).toEqual([]);

    // A pass sold on an event it does not admit to is found through its sales event alone.
    const db = t.server.services.db;
    const passId = newId();
    const now = new Date().toISOString();
    await db
      .insertInto('passes')
      .values({
        id: passId,
        workspace_id: workspaceId,
        kind: 'bundle',
        community_id: null,
        sales_event_id: ids.event('remote'),
        name: 'Sold online, held in Kuwait',
        description: null,
        price_minor: 1000,
        vat_rate: 0,
        currency: 'EUR',
        capacity: 5,
        scope: 'list',
        series_id: null,
        from_date: null,
        to_date: null,
        sales_start_utc: null,
        sales_end_utc: null,
        refund_rule: 'none',
        status: 'draft',
        created_utc: now,
        updated_utc: now,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    await db
      .insertInto('pass_events')
      .values({ pass_id: passId, event_id: ids.event('forum'), source: 'list' })
      .execute();
    expect(await byEvent('remote')).toEqual([passId]);
    expect(await byEvent('forum')).toEqual([ids.pass('bundle'), passId].sort());
    const latest = (await t.api('/passes', { key: reader })).body.data[0];
    expect(latest).toMatchObject({ passId, sold: 0, waiting: 0, left: 5, price: 10 });
    expect(latest.events).toEqual([
      expect.objectContaining({ eventId: ids.event('forum'), holders: 0, optedOut: 0, heldSeats: 5 }),
    ]);
    await db.deleteFrom('pass_events').where('pass_id', '=', passId).execute();
    await db.deleteFrom('passes').where('id', '=', passId).execute();
  });

  it('answers 404 eventNotFound for an eventId not in the workspace, and 400 for a malformed filter', async () => {
    expectProblem(await t.api(`/passes?eventId=${newId()}`, { key: reader }), 404, 'eventNotFound');
    expectProblem(await t.api('/passes?communityId=nope', { key: reader }), 400, 'invalidRequest');
  });

  it('needs tickets:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['attendees:read'] });
    expect(expectProblem(await t.api('/passes', { key }), 403, 'missingScope').scope).toBe('tickets:read');
  });
});

describe('GET /passes/{passId}', () => {
  it('answers the Pass with every field, money in the currency’s own decimals', async () => {
    const bundle = await t.api(`/passes/${ids.pass('bundle')}`, { key: reader });
    expect(bundle.status).toBe(200);
    expect(Object.keys(bundle.body).sort()).toEqual(
      [
        'passId',
        'kind',
        'communityId',
        'salesEventId',
        'name',
        'description',
        'price',
        'vatRate',
        'currency',
        'capacity',
        'sold',
        'waiting',
        'left',
        'scope',
        'seriesId',
        'fromDate',
        'toDate',
        'salesStartUtc',
        'salesEndUtc',
        'refundRule',
        'status',
        'events',
        'createdUtc',
        'updatedUtc',
      ].sort(),
    );
    expect(bundle.body).toMatchObject({
      kind: 'bundle',
      communityId: null,
      salesEventId: ids.event('summit'),
      price: 5990,
      vatRate: 12,
      currency: 'NOK',
      scope: 'list',
      seriesId: null,
      fromDate: null,
      toDate: null,
    });
    const season = await t.api(`/passes/${ids.pass('season')}`, { key: reader });
    expect(season.body).toMatchObject({
      kind: 'season',
      salesEventId: ids.event('meetup'),
      price: 12000,
      currency: 'JPY',
      scope: 'range',
      seriesId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      fromDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      toDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(season.body.fromDate <= season.body.toDate).toBe(true);
    for (const e of season.body.events) {
      expect(e.source).toBe('range');
      expect(e.startsUtc.slice(0, 10) >= season.body.fromDate).toBe(true);
      expect(e.startsUtc.slice(0, 10) <= season.body.toDate).toBe(true);
    }
    expect(bundle.body.events.map((e: any) => e.source)).toEqual(['list', 'list']);
  });

  it('counts sold, waiting, left and each event’s holders, opt-outs and held seats from the holders behind them', async () => {
    for (const key of ['season', 'bundle'] as const) {
      const res = await t.api(`/passes/${ids.pass(key)}`, { key: reader });
      const expected = await expectedCounts(ids.pass(key));
      expect(res.body).toMatchObject(expected);
      // The sample has something to count in each column.
      expect(expected.sold).toBeGreaterThan(0);
      expect(expected.waiting).toBeGreaterThan(0);
      expect(expected.events.some((e) => e.optedOut > 0)).toBe(true);
    }
    const season = (await t.api(`/passes/${ids.pass('season')}`, { key: reader })).body;
    // First first.
    expect(season.events.map((e: any) => e.eventId)).toEqual([ids.event('meetup'), ids.event('summit')]);
    // The refunded holder opted out of the meetup too, but ended holders are not counted.
    expect(season.events[0]).toMatchObject({ optedOut: 0, heldSeats: season.capacity });
    expect(season).toMatchObject({ sold: 3, waiting: 1, left: season.capacity - 4 });
  });

  it('follows the holders: a payment under way becoming paid moves it from waiting to sold; an ending frees the place', async () => {
    const db = t.server.services.db;
    const passId = ids.pass('bundle');
    const waiting = await db
      .selectFrom('pass_holders')
      .innerJoin('orders', 'orders.id', 'pass_holders.order_id')
      .select(['pass_holders.id as holderId', 'orders.id as orderId'])
      .where('pass_id', '=', passId)
      .where('orders.status', '=', 'transfer')
      .executeTakeFirstOrThrow();
    const before = (await t.api(`/passes/${passId}`, { key: reader })).body;
    await db.updateTable('orders').set({ status: 'paid' }).where('id', '=', waiting.orderId).execute();
    const paid = (await t.api(`/passes/${passId}`, { key: reader })).body;
    expect([paid.sold, paid.waiting, paid.left]).toEqual([before.sold + 1, before.waiting - 1, before.left]);
    await db
      .updateTable('pass_holders')
      .set({ status: 'ended', ended_reason: 'refunded', ended_utc: new Date().toISOString() })
      .where('id', '=', waiting.holderId)
      .execute();
    const ended = (await t.api(`/passes/${passId}`, { key: reader })).body;
    expect([ended.sold, ended.left]).toEqual([before.sold, before.left + 1]);
    expect(ended.events.map((e: any) => e.holders)).toEqual(before.events.map((e: any) => e.holders - 1));
    expect(ended).toMatchObject(await expectedCounts(passId));
  });

  it('answers with an ETag, and 304 with no body when If-None-Match names it', async () => {
    const path = `/passes/${ids.pass('season')}`;
    const res = await t.api(path, { key: reader });
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.fetch(`${t.server.origin}/api/v1${path}`, {
      headers: { authorization: `Bearer ${reader}`, 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    await touchPass(ids.pass('season'));
    const changed = await t.api(path, { key: reader, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 notFound for an unknown pass and for a pass of another workspace', async () => {
    expectProblem(await t.api(`/passes/${newId()}`, { key: reader }), 404, 'notFound');
    const other = await t.workspace('Other passes workspace', true);
    const theirs = passIds(other.workspaceId).pass('season');
    const { key: theirKey } = await t.key({ workspaceId: other.workspaceId, scopes: ['tickets:read'] });
    expect((await t.api(`/passes/${theirs}`, { key: theirKey })).status).toBe(200);
    expectProblem(await t.api(`/passes/${theirs}`, { key: reader }), 404, 'notFound');
    expect((await t.api('/passes', { key: reader })).body.data.map((p: any) => p.passId)).not.toContain(
      theirs,
    );
  });

  it('get_pass and list_passes over MCP give the same data as REST', async () => {
    const client = await t.mcp(reader);
    const tool = await callTool(client, 'get_pass', { passId: ids.pass('bundle') });
    const rest = await t.api(`/passes/${ids.pass('bundle')}`, { key: reader });
    expect(tool.isError).toBe(false);
    expect(tool.data).toEqual(rest.body);
    const list = await callTool(client, 'list_passes', { eventId: ids.event('forum') });
    expect(list.data).toEqual((await t.api(`/passes?eventId=${ids.event('forum')}`, { key: reader })).body);
    const missing = await callTool(client, 'get_pass', { passId: newId() });
    expect(missing).toMatchObject({ isError: true, data: { code: 'notFound', status: 404 } });
    await client.close();
  });
});
