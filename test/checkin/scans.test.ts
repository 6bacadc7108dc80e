// Offline uploads, the door-scan list and the check-in summary (spec CheckIn, CheckInSummary).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let key: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Scans'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t.close());

const scan = (attendeeId: string, body: Record<string, unknown> = {}) =>
  t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, { key, method: 'POST', body });
const upload = (
  scans: Record<string, unknown>[],
  headers: Record<string, string> = {},
  eventId = e.eventId,
) => t.api(`/events/${eventId}/check-ins/offline`, { key, method: 'POST', body: { scans }, headers });
// Counted back from the minute the file started in, so two of them a moment apart stay whole minutes apart.
const startedAt = clock.now().getTime();
const minutesAgo = (m: number) => new Date(startedAt - m * 60_000).toISOString();

describe('POST /events/{eventId}/check-ins/offline', () => {
  it('applies offline scans in scan order by the same rules, keeping scannedUtc and marking them offline', async () => {
    const [a, b] = await e.register(e.general, 2);
    // Sent out of order: the out (20 minutes ago) came after the in (30 minutes ago).
    const res = await upload([
      { scanId: 's2', attendeeId: a, direction: 'out', scannedUtc: minutesAgo(20) },
      { scanId: 's1', attendeeId: a, scannedUtc: minutesAgo(30) },
      { scanId: 's3', attendeeId: b, doorId: e.doors.vip, scannedUtc: minutesAgo(25) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => [d.scanId, d.result, d.admitted])).toEqual([
      ['s2', 'out', false],
      ['s1', 'welcome', true],
      ['s3', 'notOnList', false],
    ]);
    expect(res.body.data[0].checkInId).toBeGreaterThan(res.body.data[1].checkInId);
    const list = await t.api(`/events/${e.eventId}/check-ins?after=${res.body.data[1].checkInId - 1}`, {
      key,
    });
    const mine = list.body.data.filter((c: any) => c.attendeeId === a);
    expect(mine.map((c: any) => [c.result, c.offline, c.scannedUtc])).toEqual([
      ['welcome', true, minutesAgo(30).slice(0, 16) + mine[0].scannedUtc.slice(16)],
      ['out', true, mine[1].scannedUtc],
    ]);
    expect(Date.parse(mine[1].scannedUtc) - Date.parse(mine[0].scannedUtc)).toBe(10 * 60_000);
  });

  it('sets firstCheckInUtc to the earliest admission, even when an earlier offline scan arrives after a live one', async () => {
    const [a] = await e.register(e.general);
    const live = await scan(a!);
    expect(live.body.result).toBe('welcome');
    const earlier = minutesAgo(45);
    const res = await upload([{ attendeeId: a, scannedUtc: earlier }]);
    expect(res.body.data[0].result).toBe('again');
    const attendee = await t.api(`/events/${e.eventId}/attendees/${a}`, { key });
    expect(attendee.body.checkedInUtc).toBe(new Date(earlier).toISOString());
  });

  it('answers each scan that cannot be applied with its error and still applies the others', async () => {
    const [a] = await e.register(e.general);
    const res = await upload([
      { attendeeId: '0190f3a4-2222-7000-8000-000000000000', scannedUtc: minutesAgo(5) },
      { attendeeId: a, doorId: '0190f3a4-1111-7000-8000-000000000000', scannedUtc: minutesAgo(5) },
      { attendeeId: a, scannedUtc: minutesAgo(4) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      result: null,
      checkInId: null,
      error: { code: 'attendeeNotFound' },
    });
    expect(res.body.data[1]).toMatchObject({ result: null, error: { code: 'noDoor' } });
    expect(res.body.data[2]).toMatchObject({ result: 'welcome', admitted: true, error: null });
  });

  it('replays an upload retried with the same Idempotency-Key instead of scanning twice', async () => {
    const [a] = await e.register(e.general);
    const body = [{ attendeeId: a, scannedUtc: minutesAgo(3) }];
    const first = await upload(body, { 'Idempotency-Key': `upload-${a}` });
    const retry = await upload(body, { 'Idempotency-Key': `upload-${a}` });
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const count = await t.server.services.db
      .selectFrom('check_ins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('attendee_id', '=', a!)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses an empty upload or more than 500 scans with 400 invalidRequest', async () => {
    expectProblem(await upload([]), 400, 'invalidRequest');
    const many = Array.from({ length: 501 }, () => ({
      attendeeId: '0190f3a4-2222-7000-8000-000000000000',
      scannedUtc: minutesAgo(1),
    }));
    expectProblem(await upload(many), 400, 'invalidRequest');
  });
});

describe('GET /events/{eventId}/check-ins', () => {
  it('lists only scans that let someone in or out, with checkInId growing, and after to continue', async () => {
    const people = await e.register(e.general, 3);
    for (const p of people) await scan(p, { doorId: e.doors.side });
    await scan(people[0]!, { doorId: e.doors.vip }); // refused: not listed
    const all = await t.api(`/events/${e.eventId}/check-ins?limit=500`, { key });
    expect(all.status).toBe(200);
    const ids = all.body.data.map((c: any) => c.checkInId);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
    expect(all.body.data.every((c: any) => ['welcome', 'again', 'out'].includes(c.result))).toBe(true);
    expect(all.body.after).toBe(ids[ids.length - 1]);
    const item = all.body.data.find(
      (c: any) => c.attendeeId === people[2] && c.checkInListId === e.doors.side,
    );
    expect(item).toEqual({
      checkInId: expect.any(Number),
      eventId: e.eventId,
      attendeeId: people[2],
      checkInListId: e.doors.side,
      listName: 'Side entrance',
      listKind: 'entrance',
      sessionId: null,
      direction: 'in',
      result: 'welcome',
      scannedUtc: expect.any(String),
      offline: false,
    });
    const newer = await t.api(`/events/${e.eventId}/check-ins?after=${all.body.after}`, { key });
    expect(newer.body).toMatchObject({ data: [], hasMore: false, nextCursor: null, after: all.body.after });
    await scan(people[1]!, { doorId: e.doors.side, direction: 'out' });
    const next = await t.api(`/events/${e.eventId}/check-ins?after=${all.body.after}`, { key });
    expect(next.body.data.map((c: any) => c.result)).toEqual(['out']); // A number no id can reach is refused, on either store (not stored or compared as a float).
    const beyond = await t.api(`/events/${e.eventId}/check-ins?after=1e300`, { key });
    expectProblem(beyond, 400, 'invalidRequest');
  });

  it('pages with cursors (limit) and legacy page/pageSize, newest first with sort=-created', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.api(
        `/events/${e.eventId}/check-ins?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      seen.push(...res.body.data.map((c: any) => c.checkInId));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await t.api(`/events/${e.eventId}/check-ins?limit=500`, { key });
    expect(seen).toEqual(all.body.data.map((c: any) => c.checkInId));
    const newest = await t.api(`/events/${e.eventId}/check-ins?sort=-created&pageSize=2&page=1`, { key });
    expect(newest.body).toMatchObject({ page: 1, pageSize: 2 });
    expect(newest.body.data.map((c: any) => c.checkInId)).toEqual([...seen].reverse().slice(0, 2));
    const page2 = await t.api(`/events/${e.eventId}/check-ins?sort=-created&pageSize=2&page=2`, { key });
    expect(page2.body.data.map((c: any) => c.checkInId)).toEqual([...seen].reverse().slice(2, 4));
  });

  it('refuses a bad sort with 400 invalidSort and an altered cursor with 400 invalidCursor', async () => {
    expectProblem(await t.api(`/events/${e.eventId}/check-ins?sort=name`, { key }), 400, 'invalidSort');
    const first = await t.api(`/events/${e.eventId}/check-ins?limit=1`, { key });
    const cursor = String(first.body.nextCursor);
    const altered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    expectProblem(
      await t.api(`/events/${e.eventId}/check-ins?limit=1&cursor=${altered}`, { key }),
      400,
      'invalidCursor',
    );
  });

  it('honours updatedSince (scans recorded at or after it) and refuses a bad one with 400 invalidUpdatedSince', async () => {
    const [late] = await e.register(e.general);
    clock.advance(60 * 60_000);
    const since = clock.now().toISOString();
    await scan(late!, { doorId: e.doors.side });
    const recent = await t.api(`/events/${e.eventId}/check-ins?updatedSince=${since}`, { key });
    expect(recent.status).toBe(200);
    expect(recent.body.data.map((c: any) => c.attendeeId)).toEqual([late]);
    const all = await t.api(`/events/${e.eventId}/check-ins?limit=500`, { key });
    expect(all.body.data.length).toBeGreaterThan(1);
    const bad = await t.api(`/events/${e.eventId}/check-ins?updatedSince=yesterday`, { key });
    expectProblem(bad, 400, 'invalidUpdatedSince');
  });

  it('needs checkins:read', async () => {
    const { key: other } = await t.key({ workspaceId, scopes: ['events:read'] });
    const res = await t.api(`/events/${e.eventId}/check-ins`, { key: other });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('checkins:read');
  });
});

describe('GET /events/{eventId}/check-ins/summary', () => {
  it('counts registered (crew left out), checked in at the main entrance, the rate, the last hour and each door', async () => {
    const fresh = await seedDoorEvent(t, workspaceId, key);
    const guests = await fresh.register(fresh.general, 4);
    await fresh.register(fresh.crew, 2);
    const [vip] = await fresh.register(fresh.vip);
    const go = (a: string, body: Record<string, unknown> = {}) =>
      t.api(`/events/${fresh.eventId}/attendees/${a}/check-in`, { key, method: 'POST', body });
    await go(guests[0]!);
    await go(guests[1]!);
    await go(guests[1]!); // again: admitted once
    await go(guests[2]!, { doorId: fresh.doors.side });
    await go(guests[2]!, { doorId: fresh.doors.side, direction: 'out' });
    await go(guests[3]!, { doorId: fresh.doors.vip }); // refused notOnList
    await go(vip!, { doorId: fresh.doors.vip });
    await t.api(`/events/${fresh.eventId}/check-ins/offline`, {
      key,
      method: 'POST',
      body: {
        scans: [
          {
            attendeeId: guests[3],
            scannedUtc: new Date(clock.now().getTime() - 2 * 3_600_000).toISOString(),
          },
        ],
      },
    });
    const res = await t.api(`/events/${fresh.eventId}/check-ins/summary`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      eventId: fresh.eventId,
      registered: 5,
      checkedIn: 3,
      notYet: 2,
      rate: 60,
      lastHour: 3,
    });
    const door = (id: string) => res.body.doors.find((d: any) => d.doorId === id);
    expect(door(fresh.doors.main)).toEqual({
      doorId: fresh.doors.main,
      name: 'Main entrance',
      kind: 'entrance',
      sessionId: null,
      capacity: null,
      admitted: 3,
      inside: 3,
      lastHour: 2,
      refused: 0,
    });
    expect(door(fresh.doors.side)).toMatchObject({ admitted: 1, inside: 0, lastHour: 1, refused: 0 });
    expect(door(fresh.doors.vip)).toMatchObject({ admitted: 1, inside: 1, refused: 1 });
    expect(res.body.atUtc).toEqual(expect.any(String));
  });

  it('answers 409 moduleOff when check-in is switched off', async () => {
    const other = await seedDoorEvent(t, workspaceId, key);
    await t.api(`/events/${other.eventId}`, { key, method: 'PATCH', body: { modules: { checkin: false } } });
    expect(
      expectProblem(await t.api(`/events/${other.eventId}/check-ins/summary`, { key }), 409, 'moduleOff')
        .module,
    ).toBe('checkin');
  });
});

describe('check-in through MCP', () => {
  it('gives the same scanner answer as REST, a refusal being a result and not an error', async () => {
    const [a, b] = await e.register(e.general, 2);
    const client = await t.mcp(key);
    const welcome: any = await client.callTool({
      name: 'check_in_attendee',
      arguments: { eventId: e.eventId, attendeeId: a },
    });
    expect(welcome.isError).toBeFalsy();
    expect(welcome.structuredContent).toMatchObject({ result: 'welcome', admitted: true });
    const rest = await scan(a!);
    expect(rest.body.result).toBe('again');
    const refused: any = await client.callTool({
      name: 'check_in_attendee',
      arguments: { eventId: e.eventId, attendeeId: b, doorId: e.doors.vip },
    });
    expect(refused.isError).toBeFalsy();
    expect(refused.structuredContent).toMatchObject({ result: 'notOnList', admitted: false });
    const missing: any = await client.callTool({
      name: 'check_in_attendee',
      arguments: { eventId: e.eventId, attendeeId: b, doorId: '0190f3a4-1111-7000-8000-000000000000' },
    });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0].text)).toMatchObject({ code: 'noDoor', status: 404 });
    const summary: any = await client.callTool({
      name: 'get_check_in_summary',
      arguments: { eventId: e.eventId },
    });
    const restSummary = await t.api(`/events/${e.eventId}/check-ins/summary`, { key });
    expect({ ...summary.structuredContent, atUtc: null }).toEqual({ ...restSummary.body, atUtc: null });
    await client.close();
  });
});
