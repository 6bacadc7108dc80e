// The totals behind the event statistics and the check-in summary (migration 0033) are kept by
// triggers in the writer's transaction: after every kind of change, both answers equal the counts
// taken the old way from every row (test/support/full-counts.ts). A writer whose total is
// forgotten makes its step fail here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../core/admin/operator';
import { importFile } from '../../core/import/import-file';
import { toMajor } from '../../core/platform/money';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { fullStats, fullSummary } from '../support/full-counts';
import { exampleFile } from '../support/import-files';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let workspaceId: string;
let e: DoorEvent;
const db = () => t.server.services.db;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Totals workspace'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t.close());

/** Both answers of the event against the full counts; `step` names the change in a failure. */
async function expectCounted(step: string, eventId = e.eventId): Promise<void> {
  const stats = (await t.api(`/events/${eventId}/stats`, { key })).body;
  const full = await fullStats(db(), eventId);
  const { paidMinor, ...counts } = full;
  expect(
    {
      registered: stats.registered,
      checkedIn: stats.checkedIn,
      crew: stats.crew,
      awaiting: stats.awaiting,
      cancelled: stats.cancelled,
      orders: stats.orders,
      revenue: stats.revenue,
    },
    `statistics after ${step}`,
  ).toEqual({ ...counts, revenue: toMajor(paidMinor, stats.currency) });
  const summary = await t.api(`/events/${eventId}/check-ins/summary`, { key });
  if (summary.status === 404) return; // the check-in module is off for this event
  const counted = await fullSummary(db(), eventId, new Date(summary.body.atUtc));
  expect(
    {
      registered: summary.body.registered,
      checkedIn: summary.body.checkedIn,
      lastHour: summary.body.lastHour,
      doors: Object.fromEntries(
        summary.body.doors.map((d: any) => [
          d.doorId,
          { admitted: d.admitted, inside: d.inside, refused: d.refused, lastHour: d.lastHour },
        ]),
      ),
    },
    `summary after ${step}`,
  ).toEqual(counted);
}

const scan = (attendeeId: string, body: Record<string, unknown> = {}) =>
  t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, { key, method: 'POST', body });
const orderCall = (orderId: string, action: 'mark-paid' | 'refund', body: Record<string, unknown> = {}) =>
  t.api(`/events/${e.eventId}/orders/${orderId}/${action}`, { key, method: 'POST', body });

describe('statistics and check-in summary from totals', () => {
  it('equal the full counts after every kind of change', async () => {
    await expectCounted('nothing yet');
    const [a, b, c, d] = await e.register(e.general, 4);
    await expectCounted('a free registration');
    const [v] = await e.register(e.vip, 1);
    const [crew] = await e.register(e.crew, 1);
    await expectCounted('a crew ticket');

    const priced = await pricedTicketType(db(), e.eventId, 12_500, 25);
    const paid = await register(t, key, e.eventId, [person(priced), person(priced)]);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    await expectCounted('a paid registration');
    const pending = await pendingOrder(db(), e.eventId, priced, 2, 'pending');
    await expectCounted('an order awaiting payment');
    expect(
      (await orderCall(pending.orderId, 'mark-paid', { method: 'transfer', provider: 'Bank' })).status,
    ).toBe(200);
    await expectCounted('an order paid');
    const partly = await orderCall(pending.orderId, 'refund', { attendeeIds: [pending.attendeeIds[0]] });
    expect(partly.status, JSON.stringify(partly.body)).toBe(200);
    await expectCounted('a partial refund');
    expect((await orderCall(pending.orderId, 'refund')).status).toBe(200);
    await expectCounted('a refund');
    for (const status of ['expired', 'cancelled'] as const) {
      const order = await pendingOrder(db(), e.eventId, priced, 1, 'pending');
      await db().updateTable('orders').set({ status }).where('id', '=', order.orderId).execute();
      await expectCounted(`an order ${status}`);
    }

    const cancelled = await t.api(`/events/${e.eventId}/attendees/${d}/cancel`, { key, method: 'POST' });
    expect(cancelled.status).toBe(200);
    await expectCounted('a ticket cancelled');
    const moved = await t.api(`/events/${e.eventId}/attendees/${c}`, {
      key,
      method: 'PATCH',
      body: { firstName: 'Other', lastName: 'Holder' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await expectCounted('a ticket given to another holder');
    // The crew flag of a type with tickets (no operation changes it today; the totals follow anyway).
    await db().updateTable('ticket_types').set({ crew: 1 }).where('id', '=', e.vip).execute();
    await expectCounted('a ticket type made crew');
    await db().updateTable('ticket_types').set({ crew: 0 }).where('id', '=', e.vip).execute();

    const results: string[] = [];
    const scanned = async (step: string, attendeeId: string, body: Record<string, unknown> = {}) => {
      const res = await scan(attendeeId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      results.push(res.body.result);
      await expectCounted(step);
    };
    await scanned('a check-in', a!);
    await scanned('a repeat scan', a!);
    await scanned('a check-out', a!, { direction: 'out' });
    await scanned('a re-entry', a!);
    await scanned('a check-in at a second entrance', b!, { doorId: e.doors.side });
    await scanned('a check-in at a session door', v!, { doorId: e.doors.session });
    await scanned('a refused scan', b!, { doorId: e.doors.vip });
    await scanned('a crew check-in', crew!);
    expect(results).toContain('welcome');
    expect(results.filter((r) => !['welcome', 'again', 'out'].includes(r)).length).toBeGreaterThan(0);

    const thirtyMinutesAgo = new Date(Date.now() - 30 * 60_000).toISOString();
    const ninetyMinutesAgo = new Date(Date.now() - 90 * 60_000).toISOString();
    const upload = await t.api(`/events/${e.eventId}/check-ins/offline`, {
      key,
      method: 'POST',
      body: {
        scans: [
          { scanId: 'u1', attendeeId: b, scannedUtc: ninetyMinutesAgo },
          { scanId: 'u2', attendeeId: v, scannedUtc: thirtyMinutesAgo },
          { scanId: 'u3', attendeeId: c, doorId: e.doors.vip, scannedUtc: thirtyMinutesAgo },
        ],
      },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    await expectCounted('an offline upload');

    const email = (await t.api(`/events/${e.eventId}/attendees/${a}`, { key })).body.email;
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { email } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    await expectCounted('an erasure');

    const door = await t.api(`/events/${e.eventId}/doors`, {
      key,
      method: 'POST',
      body: { name: 'Back door', kind: 'entrance' },
    });
    expect(door.status, JSON.stringify(door.body)).toBe(201);
    await expectCounted('a door added');
    expect(
      (await t.api(`/events/${e.eventId}/doors/${door.body.doorId}`, { key, method: 'DELETE' })).status,
    ).toBe(204);
    await expectCounted('a door deleted');
    const type = await t.api(`/events/${e.eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Unused', price: 0 },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    const gone = await t.api(`/events/${e.eventId}/ticket-types/${type.body.ticketTypeId}`, {
      key,
      method: 'DELETE',
    });
    expect(gone.status).toBe(204);
    await expectCounted('a ticket type deleted');
  });

  it('equal the full counts of every event an import makes, and leave nothing behind a deleted event', async () => {
    await importFile(await operatorContext(t.server.services, workspaceId), JSON.stringify(exampleFile()));
    const events = await db()
      .selectFrom('events')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) await expectCounted(`an import (event ${event.id})`, event.id);

    const made = await t.api('/events', {
      key,
      method: 'POST',
      body: {
        name: 'Short-lived',
        timeZone: 'UTC',
        currency: 'EUR',
        startsLocal: '2030-01-01T09:00',
        endsLocal: '2030-01-01T17:00',
        online: true,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await t.api(`/events/${made.body.eventId}`, { key, method: 'DELETE' })).status).toBe(204);
    for (const table of ['ticket_totals', 'order_totals'] as const) {
      const left = await db()
        .selectFrom(table)
        .select('event_id')
        .where('event_id', '=', made.body.eventId)
        .execute();
      expect(left, table).toEqual([]);
    }
  });

  it('equal the full counts after registrations and scans in parallel', async () => {
    const people = await e.register(e.general, 40);
    await Promise.all([
      ...Array.from({ length: 6 }, () => e.register(e.general, 5)),
      ...people.map((id, i) =>
        scan(id, { doorId: [e.doors.main, e.doors.side, e.doors.vip, e.doors.session][i % 4] }),
      ),
    ]);
    await expectCounted('registrations and scans in parallel');
  });
});
