// The door scanner's ticket list (GET /events/{eventId}/check-ins/scan-list, tool list_scan_list):
// every ticket once across pages, a SHA-256 of its code and never the code, the facts the scanner
// rules read, names only with people:read, refreshed with updatedSince, and only for checkins:write.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let e: DoorEvent;
let doorKey: string;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Scan list'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
  ({ key: doorKey } = await t.key({ workspaceId, scopes: ['checkins:write', 'checkins:read'] }));
});
afterAll(async () => t.close());

const list = (k: string, query = '') => t.api(`/events/${e.eventId}/check-ins/scan-list${query}`, { key: k });
const attendee = async (id: string) => (await t.api(`/events/${e.eventId}/attendees/${id}`, { key })).body;

async function all(k: string, query = ''): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await list(
      k,
      `?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
    expect(res.body.hasMore).toBe(cursor !== null);
  } while (cursor);
  return rows;
}

describe('GET /events/{eventId}/check-ins/scan-list', () => {
  it('pages through every ticket once, with the hash of its code and never the code', async () => {
    const ids = await e.register(e.general, 5);
    const rows = await all(doorKey);
    expect(rows.map((r) => r.attendeeId).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const row = rows.find((r) => r.attendeeId === id);
      const full = await attendee(id);
      expect(row.codeSha256).toBe(sha(full.ticketCode));
      expect(row.codeSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(full.ticketCode);
      expect(row).toMatchObject({
        status: 'active',
        valid: true,
        ticketTypeId: e.general,
        ticketTypeName: full.ticketTypeName,
        addOnIds: [],
        firstCheckInUtc: null,
        firstName: null,
        lastName: null,
        personalData: 'withheld',
      });
    }
  });

  it('shows names only to a key that may read people, and the add-ons a ticket holds', async () => {
    const res = await register(t, key, e.eventId, [
      person(e.vip, { firstName: 'Grace', lastName: 'Hopper' }),
    ]);
    expect(res.status).toBe(201);
    const id = res.body.attendees[0].attendeeId;
    const { key: namedKey } = await t.key({ workspaceId, scopes: ['checkins:write', 'people:read'] });
    const named = (await all(namedKey)).find((r) => r.attendeeId === id);
    expect(named).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', personalData: 'included' });
    expect(named.addOnIds).toEqual([e.workshop]);
    const unnamed = (await all(doorKey)).find((r) => r.attendeeId === id);
    expect(unnamed).toMatchObject({ firstName: null, lastName: null, personalData: 'withheld' });
  });

  it('shows an erased person without a name, the ticket still there to admit them', async () => {
    const res = await register(t, key, e.eventId, [
      person(e.general, { firstName: 'Erasable', lastName: 'Person' }),
    ]);
    const id = res.body.attendees[0].attendeeId;
    const code = (await attendee(id)).ticketCode;
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { attendeeId: id } });
    expect(erased.status).toBe(200);
    const { key: namedKey } = await t.key({ workspaceId, scopes: ['checkins:write', 'people:read'] });
    const row = (await all(namedKey)).find((r) => r.attendeeId === id);
    expect(row).toMatchObject({ firstName: null, lastName: null, personalData: 'erased', valid: true });
    expect(row.codeSha256).toBe(sha(code));
  });

  it('answers with updatedSince only what changed since: a check-in and a cancellation', async () => {
    const [a, b] = await e.register(e.general, 2);
    const before = await all(doorKey);
    const newest = before
      .map((r) => r.updatedUtc)
      .sort()
      .at(-1);
    await new Promise((r) => setTimeout(r, 5));
    const scanned = await t.api(`/events/${e.eventId}/attendees/${a}/check-in`, {
      key: doorKey,
      method: 'POST',
      body: {},
    });
    expect(scanned.body.result).toBe('welcome');
    const cancelled = await t.api(`/events/${e.eventId}/attendees/${b}/cancel`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(cancelled.status).toBe(200);
    const changed = await all(doorKey, `&updatedSince=${encodeURIComponent(newest)}`);
    const byId = new Map(changed.map((r) => [r.attendeeId, r]));
    expect(byId.get(a)?.firstCheckInUtc).toBe(scanned.body.firstCheckInUtc);
    expect(byId.get(b)).toMatchObject({ status: 'cancelled', valid: false });
    expect(changed.length).toBeLessThan(before.length);
    expectProblem(await list(doorKey, '?updatedSince=yesterday'), 400, 'invalidUpdatedSince');
  });

  it('needs checkins:write, and finds no other workspace’s event', async () => {
    const { key: reader } = await t.key({ workspaceId, scopes: ['checkins:read', 'people:read'] });
    expectProblem(await list(reader), 403, 'missingScope');
    const other = await t.workspace('Other scan list');
    const { key: stranger } = await t.key({ workspaceId: other.workspaceId, scopes: ['checkins:write'] });
    expectProblem(await list(stranger), 404, 'eventNotFound');
    expectProblem(await list(doorKey, '?limit=501'), 400, 'invalidRequest');
    expectProblem(await list(doorKey, '?colour=red'), 400, 'invalidRequest');
  });

  it('is the MCP tool list_scan_list, answering the same rows', async () => {
    const client = await t.mcp(doorKey);
    const answer: any = await client.callTool({
      name: 'list_scan_list',
      arguments: { eventId: e.eventId, limit: 500 },
    });
    expect(answer.isError).toBeFalsy();
    const rest = await list(doorKey, '?limit=500');
    expect(answer.structuredContent.data).toEqual(rest.body.data);
    await client.close();
  });
});
