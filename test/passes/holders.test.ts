// Pass holders (spec PassHolder): newest first, status filter (active or
// ended), cursor paging, names only with people:read (personal-data rule), attendees:read
// needed (tickets:read alone is not enough), and 404 for a pass not in the workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/platform/ids';
import { expectProblem } from '../support/fixtures';
import { callTool, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { passIds } from './passes-support';

let t: TestServer;
let workspaceId: string;
let attendeesReader: string;
let peopleReader: string;
let ids: ReturnType<typeof passIds>;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Pass holders workspace', true));
  ({ key: attendeesReader } = await t.key({ workspaceId, scopes: ['attendees:read'] }));
  ({ key: peopleReader } = await t.key({ workspaceId, scopes: ['attendees:read', 'people:read'] }));
  ids = passIds(workspaceId);
});
afterAll(async () => t.close());

const holdersPath = (pass: 'season' | 'bundle', query = '') => `/passes/${ids.pass(pass)}/holders${query}`;

async function storedHolders(pass: 'season' | 'bundle') {
  return t.server.services.db
    .selectFrom('pass_holders')
    .innerJoin('orders', 'orders.id', 'pass_holders.order_id')
    .selectAll('pass_holders')
    .select(['orders.status as order_status', 'orders.event_id as order_event_id'])
    .where('pass_id', '=', ids.pass(pass))
    .orderBy('pass_holders.created_utc', 'desc')
    .orderBy('pass_holders.id', 'desc')
    .execute();
}

describe('GET /passes/{passId}/holders', () => {
  it('lists every holder newest first, with the order on the sales event and its status', async () => {
    const res = await t.api(holdersPath('season'), { key: peopleReader });
    expect(res.status).toBe(200);
    const stored = await storedHolders('season');
    expect(res.body.data.map((h: any) => h.holderId)).toEqual(stored.map((h) => h.id));
    const created = res.body.data.map((h: any) => h.createdUtc);
    expect([...created].sort().reverse()).toEqual(created);
    for (const [i, h] of res.body.data.entries()) {
      const row = stored[i]!;
      expect(row.order_event_id).toBe(ids.event('meetup'));
      expect(h).toEqual({
        holderId: row.id,
        passId: ids.pass('season'),
        status: row.status,
        endedReason: row.ended_reason,
        endedUtc: row.ended_utc,
        orderId: row.order_id,
        orderStatus: row.order_status,
        firstName: row.first_name,
        lastName: row.last_name,
        createdUtc: row.created_utc,
        updatedUtc: row.updated_utc,
        erased: false,
        personalData: 'included',
      });
    }
    const statuses = new Set(res.body.data.map((h: any) => h.orderStatus));
    for (const s of ['paid', 'free', 'pending', 'refunded']) expect(statuses).toContain(s);
    const ended = res.body.data.find((h: any) => h.status === 'ended');
    expect(ended).toMatchObject({
      endedReason: 'refunded',
      orderStatus: 'refunded',
      endedUtc: expect.any(String),
    });
  });

  it('filters by status active or ended, and refuses another status with 400 invalidRequest', async () => {
    const stored = await storedHolders('bundle');
    const active = await t.api(holdersPath('bundle', '?status=active'), { key: attendeesReader });
    expect(active.body.data.map((h: any) => h.holderId)).toEqual(
      stored.filter((h) => h.status === 'active').map((h) => h.id),
    );
    const ended = await t.api(holdersPath('bundle', '?status=ended'), { key: attendeesReader });
    expect(ended.body.data.map((h: any) => h.holderId)).toEqual(
      stored.filter((h) => h.status === 'ended').map((h) => h.id),
    );
    expect(ended.body.data.length).toBeGreaterThan(0);
    expect(ended.body.data.every((h: any) => h.status === 'ended' && h.endedReason !== null)).toBe(true);
    expectProblem(
      await t.api(holdersPath('bundle', '?status=gone'), { key: attendeesReader }),
      400,
      'invalidRequest',
    );
  });

  it('pages newest first with cursor and limit, and a cursor is bound to its filter', async () => {
    const all = (await t.api(holdersPath('season'), { key: attendeesReader })).body.data.map(
      (h: any) => h.holderId,
    );
    const { items, pages } = await walkPages(t, attendeesReader, holdersPath('season', '?limit=2'));
    expect(pages).toBe(Math.ceil(all.length / 2));
    expect(items.map((h) => h.holderId)).toEqual(all);
    const first = await t.api(holdersPath('season', '?limit=2'), { key: attendeesReader });
    expectProblem(
      await t.api(
        holdersPath('season', `?limit=2&status=active&cursor=${encodeURIComponent(first.body.nextCursor)}`),
        {
          key: attendeesReader,
        },
      ),
      400,
      'invalidCursor',
    );
  });

  it('gives names only with people:read: without it they are null and personalData is withheld', async () => {
    const res = await t.api(holdersPath('bundle'), { key: attendeesReader });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const h of res.body.data) {
      expect(h).toMatchObject({ firstName: null, lastName: null, erased: false, personalData: 'withheld' });
      expect(h.orderId).toMatch(/^[0-9a-f-]{36}$/);
    }
    const stored = await storedHolders('bundle');
    const text = JSON.stringify(res.body);
    for (const h of stored) expect(text).not.toContain(h.last_name!);
  });

  it('shows nothing personal of a holder who erased their data, even with people:read', async () => {
    const holderId = ids.holder('season', 'h2');
    await t.server.services.db
      .updateTable('pass_holders')
      .set({ erased: 1 })
      .where('id', '=', holderId)
      .execute();
    const res = await t.api(holdersPath('season'), { key: peopleReader });
    expect(res.body.data.find((h: any) => h.holderId === holderId)).toMatchObject({
      firstName: null,
      lastName: null,
      erased: true,
      personalData: 'erased',
    });
  });

  it('needs attendees:read: tickets:read alone gets 403 missingScope', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['tickets:read', 'people:read'] });
    expect((await t.api(`/passes/${ids.pass('season')}`, { key })).status).toBe(200);
    const body = expectProblem(await t.api(holdersPath('season'), { key }), 403, 'missingScope');
    expect(body.scope).toBe('attendees:read');
  });

  it('answers 404 notFound for an unknown pass and for another workspace’s pass', async () => {
    expectProblem(await t.api(`/passes/${newId()}/holders`, { key: attendeesReader }), 404, 'notFound');
    const other = await t.workspace('Other holders workspace', true);
    expectProblem(
      await t.api(`/passes/${passIds(other.workspaceId).pass('bundle')}/holders`, { key: attendeesReader }),
      404,
      'notFound',
    );
  });

  it('list_pass_holders over MCP gives the same page as REST', async () => {
    const client = await t.mcp(peopleReader);
    const tool = await callTool(client, 'list_pass_holders', {
      passId: ids.pass('bundle'),
      status: 'active',
    });
    expect(tool.isError).toBe(false);
    expect(tool.data).toEqual(
      (await t.api(holdersPath('bundle', '?status=active'), { key: peopleReader })).body,
    );
    await client.close();
  });
});
