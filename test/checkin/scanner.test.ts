// Door check-in by the steward's scanner rules (spec "Check-in", CheckInResult).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEventType } from '../../db/values';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { eventBody, expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let reader: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Doors'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: reader } = await t.key({
    workspaceId,
    scopes: ['checkins:write', 'attendees:read'],
    expires: 'never',
  }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t.close());

const scan = (
  attendeeId: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  as = key,
) =>
  t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, { key: as, method: 'POST', body, headers });

async function outbox(type: WebhookEventType, attendeeId: string) {
  const rows = await t.server.services.db
    .selectFrom('outbox')
    .select('payload')
    .where('type', '=', type)
    // In the order written: PostgreSQL returns rows in no set order without one (an update moves them).
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(r.payload)).filter((p) => p.data.attendee.attendeeId === attendeeId);
}

describe('POST /events/{eventId}/attendees/{attendeeId}/check-in', () => {
  it('welcomes the first time at the main entrance, says again after that, and sets firstCheckInUtc', async () => {
    const [a] = await e.register(e.general);
    const first = await scan(a!);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      result: 'welcome',
      admitted: true,
      door: { doorId: e.doors.main, name: 'Main entrance', kind: 'entrance' },
    });
    expect(first.body.firstCheckInUtc).toEqual(expect.any(String));
    expect(first.body.attendee.checkedInUtc).toBe(first.body.firstCheckInUtc);
    expect(first.body.attendee.attendeeId).toBe(a);
    const second = await scan(a!, { doorId: e.doors.main });
    expect(second.body).toMatchObject({
      result: 'again',
      admitted: true,
      firstCheckInUtc: first.body.firstCheckInUtc,
    });
    expect(second.body.checkInId).toBeGreaterThan(first.body.checkInId);
  });

  it('lets a person out with result out, and back in (again) where re-entry is allowed', async () => {
    const [a] = await e.register(e.general);
    expect((await scan(a!, { doorId: e.doors.side })).body.result).toBe('welcome');
    const out = await scan(a!, { doorId: e.doors.side, direction: 'out' });
    expect(out.body).toMatchObject({ result: 'out', admitted: false });
    expect((await scan(a!, { doorId: e.doors.side })).body).toMatchObject({
      result: 'again',
      admitted: true,
    });
  });

  it('takes firstCheckInUtc at the main entrance only', async () => {
    const [a] = await e.register(e.general);
    const side = await scan(a!, { doorId: e.doors.side });
    expect(side.body.result).toBe('welcome');
    expect(side.body.firstCheckInUtc).toBeNull();
    expect(side.body.attendee.checkedInUtc).toBeNull();
  });

  it('refuses a second entry with noReentry where re-entry is not allowed', async () => {
    const [a] = await e.register(e.vip);
    expect((await scan(a!, { doorId: e.doors.vip })).body.result).toBe('welcome');
    expect((await scan(a!, { doorId: e.doors.vip, direction: 'out' })).body.result).toBe('out');
    expect((await scan(a!, { doorId: e.doors.vip })).body).toMatchObject({
      result: 'noReentry',
      admitted: false,
    });
  });

  it('refuses a ticket type the door does not admit with notOnList', async () => {
    const [a] = await e.register(e.general);
    expect((await scan(a!, { doorId: e.doors.vip })).body).toMatchObject({
      result: 'notOnList',
      admitted: false,
    });
  });

  it('refuses an attendee without the add-on the door needs with noAddOn, and admits one with it', async () => {
    const [plain] = await e.register(e.general);
    const [withWorkshop] = await e.register(e.vip);
    expect((await scan(plain!, { doorId: e.doors.session })).body).toMatchObject({
      result: 'noAddOn',
      admitted: false,
    });
    expect((await scan(withWorkshop!, { doorId: e.doors.session })).body).toMatchObject({
      result: 'welcome',
      admitted: true,
    });
  });

  it('refuses a cancelled ticket with cancelled', async () => {
    const [a] = await e.register(e.general);
    expect((await t.api(`/events/${e.eventId}/attendees/${a}/cancel`, { key, method: 'POST' })).status).toBe(
      200,
    );
    expect((await scan(a!)).body).toMatchObject({ result: 'cancelled', admitted: false });
  });

  it('refuses a ticket whose order is not paid with unpaid', async () => {
    const [a] = await e.register(e.general);
    const db = t.server.services.db;
    const { order_id } = await db
      .selectFrom('attendees')
      .select('order_id')
      .where('id', '=', a!)
      .executeTakeFirstOrThrow();
    await db.updateTable('orders').set({ status: 'pending' }).where('id', '=', order_id).execute();
    const res = await scan(a!);
    expect(res.body).toMatchObject({ result: 'unpaid', admitted: false });
    expect(res.body.attendee.valid).toBe(false);
  });

  it("refuses with full when the door's capacity of people inside is reached, and admits again when one goes out", async () => {
    const people = await e.register(e.general, 4);
    for (const p of people.slice(0, 3))
      expect((await scan(p, { doorId: e.doors.small })).body.result).toBe('welcome');
    expect((await scan(people[3]!, { doorId: e.doors.small })).body).toMatchObject({
      result: 'full',
      admitted: false,
    });
    expect((await scan(people[0]!, { doorId: e.doors.small, direction: 'out' })).body.result).toBe('out');
    expect((await scan(people[3]!, { doorId: e.doors.small })).body.result).toBe('welcome');
    for (const p of people.slice(1)) await scan(p, { doorId: e.doors.small, direction: 'out' });
  });

  it('answers 404 noDoor for a door not of the event and 404 attendeeNotFound for an unknown attendee', async () => {
    const [a] = await e.register(e.general);
    expectProblem(await scan(a!, { doorId: '0190f3a4-1111-7000-8000-000000000000' }), 404, 'noDoor');
    expectProblem(await scan('0190f3a4-2222-7000-8000-000000000000'), 404, 'attendeeNotFound');
  });

  it('answers 404 attendeeNotFound for an attendee of another event', async () => {
    const other = await seedDoorEvent(t, workspaceId, key);
    const [stranger] = await other.register(other.general);
    expectProblem(await scan(stranger!), 404, 'attendeeNotFound');
  });

  it('replays the first answer to a retry with the same Idempotency-Key', async () => {
    const [a] = await e.register(e.general);
    const first = await scan(a!, {}, { 'Idempotency-Key': `scan-${a}` });
    const retry = await scan(a!, {}, { 'Idempotency-Key': `scan-${a}` });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.body.result).toBe('welcome');
  });

  it('writes checkin.created for a welcome, again or out, and nothing for a refusal', async () => {
    const [a] = await e.register(e.general);
    await scan(a!);
    await scan(a!);
    await scan(a!, { direction: 'out' });
    await scan(a!, { doorId: e.doors.vip });
    const messages = await outbox('checkin.created', a!);
    expect(messages.map((m) => m.data.checkIn.result)).toEqual(['welcome', 'again', 'out']);
    expect(messages[0].data.event).toEqual({
      eventId: e.eventId,
      slug: expect.any(String),
      name: expect.any(String),
    });
    expect(messages[0].data.checkIn).toMatchObject({
      attendeeId: a,
      checkInListId: e.doors.main,
      listKind: 'entrance',
      direction: 'in',
      offline: false,
    });
  });

  it("withholds the attendee's personal data without people:read", async () => {
    const [a] = await e.register(e.general);
    const res = await scan(a!, {}, {}, reader);
    expect(res.body.attendee).toMatchObject({ firstName: null, email: null, personalData: 'withheld' });
  });

  it('answers 409 onlineEvent for an online event and 409 moduleOff when check-in is switched off', async () => {
    const online = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({ online: true, venue: undefined, timeZone: 'UTC' }),
    });
    expectProblem(
      await t.api(`/events/${online.body.eventId}/attendees/0190f3a4-2222-7000-8000-000000000000/check-in`, {
        key,
        method: 'POST',
        body: {},
      }),
      409,
      'onlineEvent',
    );
    expectProblem(await t.api(`/events/${online.body.eventId}/doors`, { key }), 409, 'onlineEvent');

    const other = await seedDoorEvent(t, workspaceId, key);
    const [a] = await other.register(other.general);
    await t.api(`/events/${other.eventId}`, { key, method: 'PATCH', body: { modules: { checkin: false } } });
    const off = await t.api(`/events/${other.eventId}/attendees/${a}/check-in`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(expectProblem(off, 409, 'moduleOff').module).toBe('checkin');
    await t.api(`/events/${other.eventId}`, { key, method: 'PATCH', body: { modules: { checkin: true } } });
    const on = await t.api(`/events/${other.eventId}/attendees/${a}/check-in`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(on.body.result).toBe('welcome');
  });
});

describe('concurrent scanners', () => {
  it('give exactly one welcome when two scanners scan the same ticket at the same moment', async () => {
    const [a] = await e.register(e.general);
    const answers = await Promise.all(Array.from({ length: 12 }, () => scan(a!)));
    const results = answers.map((r) => r.body.result).sort();
    expect(results.filter((r) => r === 'welcome')).toHaveLength(1);
    expect(results.filter((r) => r === 'again')).toHaveLength(11);
  });

  it('never let more than capacity inside a door, whatever the concurrency', async () => {
    const people = await e.register(e.general, 15);
    const db = t.server.services.db;
    const door = await db
      .selectFrom('doors')
      .select('inside')
      .where('id', '=', e.doors.small)
      .executeTakeFirstOrThrow();
    expect(door.inside).toBe(0);
    const answers = await Promise.all(people.map((p) => scan(p, { doorId: e.doors.small })));
    expect(answers.filter((r) => r.body.admitted)).toHaveLength(3);
    expect(answers.filter((r) => r.body.result === 'full')).toHaveLength(12);
    const after = await db
      .selectFrom('doors')
      .select('inside')
      .where('id', '=', e.doors.small)
      .executeTakeFirstOrThrow();
    expect(after.inside).toBe(3);
  });
});

describe('GET /events/{eventId}/doors', () => {
  it('lists entrance, session and area doors with capacity, what they admit and re-entry', async () => {
    const res = await t.api(`/events/${e.eventId}/doors`, {
      key: (await t.key({ workspaceId, scopes: ['events:read'] })).key,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => d.kind)).toEqual([
      'entrance',
      'entrance',
      'session',
      'area',
      'area',
    ]);
    expect(res.body.data.find((d: any) => d.doorId === e.doors.vip)).toEqual({
      doorId: e.doors.vip,
      name: 'VIP lounge',
      kind: 'area',
      main: false,
      sessionId: null,
      capacity: null,
      reentry: false,
      ticketTypeIds: [e.vip],
      addOnIds: [],
    });
    expect(res.body.data.find((d: any) => d.doorId === e.doors.session).addOnIds).toEqual([e.workshop]);
  });
});
