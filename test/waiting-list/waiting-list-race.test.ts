// Places freed while people register at once: a freed place goes to the waiting list before the
// public can take it, in join order, and offers and tickets together never exceed the capacity
// (each offer holds its place through the one conditional update of core/sales/places.ts). Run on
// SQLite and on PostgreSQL (scripts/test-postgres.mjs), where the writes truly overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireWaitingOffers } from '../../core/waiting-list';
import { eventBody } from '../support/fixtures';
import { person, register } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let key: string;
let eventId: string;
let typeId: string;
const capacity = 5;
const tickets: string[] = [];

const counts = async () => {
  const db = t.server.services.db;
  const type = await db
    .selectFrom('ticket_types')
    .select('taken')
    .where('id', '=', typeId)
    .executeTakeFirstOrThrow();
  const active = await db
    .selectFrom('attendees')
    .select('id')
    .where('ticket_type_id', '=', typeId)
    .where('status', '=', 'active')
    .execute();
  const entries = await db
    .selectFrom('waiting_list_entries')
    .select(['email', 'status', 'position'])
    .where('ticket_type_id', '=', typeId)
    .orderBy('position')
    .execute();
  const offered = entries.filter((e) => e.status === 'offered');
  return { taken: type.taken, active: active.length, offered, entries };
};

beforeAll(async () => {
  t = await startTestServer({ clock, scheduledJobs: false });
  const { workspaceId } = await t.workspace('Waiting race');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  eventId = (await t.api('/events', { key, method: 'POST', body: eventBody() })).body.eventId;
  typeId = (
    await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Few places', capacity, waitingList: true },
    })
  ).body.ticketTypeId;
  for (let i = 0; i < capacity; i++) {
    const made = await register(t, key, eventId, [person(typeId)]);
    expect(made.status).toBe(201);
    tickets.push(made.body.attendees[0].attendeeId);
  }
  for (let i = 0; i < 8; i++) {
    const joined = await t.api(`/events/${eventId}/waiting-list`, {
      key,
      method: 'POST',
      body: { ticketTypeId: typeId, firstName: 'In', lastName: `Line${i}`, email: `line${i}@race.test` },
    });
    expect(joined.status).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('places freed while the public registers', () => {
  it('go to the first in line, none to the public, and never beyond the capacity', async () => {
    const cancels = tickets.map((id) =>
      t.api(`/events/${eventId}/attendees/${id}/cancel`, { key, method: 'POST', body: {} }),
    );
    const registrations = Array.from({ length: 20 }, () => register(t, key, eventId, [person(typeId)]));
    const [cancelled, registered] = await Promise.all([Promise.all(cancels), Promise.all(registrations)]);
    expect(cancelled.map((r) => r.status)).toEqual(tickets.map(() => 200));
    // A registration before the first cancellation finds it sold out too: every one is refused.
    expect(registered.map((r) => r.status)).toEqual(registered.map(() => 400));
    const after = await counts();
    expect(after.active).toBe(0);
    expect(after.offered.map((e) => e.email)).toEqual([0, 1, 2, 3, 4].map((i) => `line${i}@race.test`));
    expect(after.taken).toBe(after.active + after.offered.length);
  });

  it('after offers run out, places go on in order, the rest to the public, still never beyond the capacity', async () => {
    clock.advance(49 * 3_600_000);
    const expiring = expireWaitingOffers(t.server.services);
    const registrations = Array.from({ length: 10 }, () => register(t, key, eventId, [person(typeId)]));
    const [, registered] = await Promise.all([expiring, Promise.all(registrations)]);
    const after = await counts();
    // The three still waiting were offered places; the two left went to the public (or stay free).
    expect(after.offered.map((e) => e.email)).toEqual([5, 6, 7].map((i) => `line${i}@race.test`));
    const ok = registered.filter((r) => r.status === 201).length;
    expect(ok).toBeLessThanOrEqual(capacity - 3);
    expect(after.active).toBe(ok);
    expect(after.taken).toBe(after.active + after.offered.length);
    expect(after.taken).toBeLessThanOrEqual(capacity);
  });

  it('keeps its counts through cancellations, removals, expiries, a raised capacity and registrations at once, none run again', async () => {
    for (let i = 8; i < 14; i++)
      await t.api(`/events/${eventId}/waiting-list`, {
        key,
        method: 'POST',
        body: { ticketTypeId: typeId, firstName: 'In', lastName: `Line${i}`, email: `line${i}@race.test` },
      });
    const before = await counts();
    const ranBefore = t.server.services.writes.ranAgain;
    clock.advance(49 * 3_600_000);
    const db = t.server.services.db;
    const active = await db
      .selectFrom('attendees')
      .select('id')
      .where('ticket_type_id', '=', typeId)
      .where('status', '=', 'active')
      .execute();
    const offered = await db
      .selectFrom('waiting_list_entries')
      .select('id')
      .where('ticket_type_id', '=', typeId)
      .where('status', '=', 'offered')
      .execute();
    await Promise.all([
      expireWaitingOffers(t.server.services),
      t.api(`/events/${eventId}/ticket-types/${typeId}`, {
        key,
        method: 'PATCH',
        body: { capacity: capacity + 2 },
      }),
      ...offered.map((e) => t.api(`/events/${eventId}/waiting-list/${e.id}`, { key, method: 'DELETE' })),
      ...active.map((a) =>
        t.api(`/events/${eventId}/attendees/${a.id}/cancel`, { key, method: 'POST', body: {} }),
      ),
      ...Array.from({ length: 10 }, () => register(t, key, eventId, [person(typeId)])),
    ]);
    const after = await counts();
    expect(after.taken).toBe(after.active + after.offered.length);
    expect(after.taken).toBeLessThanOrEqual(capacity + 2);
    // Nobody waits while a place is free.
    if (after.entries.some((e) => e.status === 'waiting')) expect(after.taken).toBe(capacity + 2);
    expect(before.entries.length).toBe(after.entries.length);
    expect(t.server.services.writes.ranAgain - ranBefore).toBe(0);
  });
});
