// Sales pace (spec SalesPace, issue "Sales core" 6): days 7 to 90 (default 30) counted in venue
// days of the event's time zone, this week against last week from 14 days up, tickets per day,
// crew left out, the projection by the first day and the days until sold out.
// The clock is set to chosen moments so tickets are made at known venue times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { newId } from '../../core/platform/ids';
import { newTicketCode } from '../../core/platform/ticket-codes';
import { nextChangeSeq } from '../../db/sequence';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, person, register, setClock } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let key: string;
let eventId: string;
let general: string;
let crew: string;
let unlimitedEventId: string;

/** "Today": 21:00 on 15 March 2030 in Tokyo (UTC+9). */
const now = '2030-03-15T12:00:00Z';

/** A pending order made at a given moment, with one ticket, for payment later. */
async function pendingOrder(createdUtc: string, totalMinor: number): Promise<string> {
  const db = t.server.services.db;
  const orderId = newId();
  await db
    .insertInto('orders')
    .values({
      id: orderId,
      workspace_id: workspaceId,
      event_id: eventId,
      reference: 'PEND01',
      status: 'pending',
      buyer_name: 'Pending Buyer',
      buyer_email: 'pending.buyer@example.org',
      buyer_company: null,
      language: 'ja',
      total_minor: totalMinor,
      vat_minor: 0,
      currency: 'JPY',
      payment_provider: null,
      paid_utc: null,
      source: 'registration',
      discount_code_id: null,
      erased: 0,
      created_utc: createdUtc,
      updated_utc: createdUtc,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
  await db
    .insertInto('attendees')
    .values({
      id: newId(),
      workspace_id: workspaceId,
      event_id: eventId,
      order_id: orderId,
      ticket_type_id: general,
      first_name: 'Pending',
      last_name: 'Buyer',
      email: 'pending.buyer@example.org',
      company: null,
      job_title: null,
      language: 'ja',
      answers: null,
      status: 'active',
      checked_in_utc: null,
      cancelled_utc: null,
      erased: 0,
      ticket_code: newTicketCode(),
      created_utc: createdUtc,
      updated_utc: createdUtc,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
  await db.updateTable('ticket_types').set({ taken: 1 }).where('id', '=', general).execute();
  return orderId;
}

async function registerAt(moment: string, ticketTypeId: string, n: number, target = eventId) {
  setClock(clock, moment);
  const res = await register(
    t,
    key,
    target,
    Array.from({ length: n }, () => person(ticketTypeId)),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Sales pace workspace'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  setClock(clock, '2030-02-01T00:00:00Z');
  const made = await t.api('/events', {
    key,
    method: 'POST',
    body: eventBody({
      timeZone: 'Asia/Tokyo',
      currency: 'JPY',
      languages: ['ja', 'en'],
      startsLocal: '2030-04-14T10:00',
      endsLocal: '2030-04-14T18:00',
      venue: { name: 'Shibuya Hall', city: 'Tokyo', country: 'JP' },
    }),
  });
  expect(made.status).toBe(201);
  eventId = made.body.eventId;
  general = await addTicketType(t, eventId, { name: 'General', capacity: 100 });
  crew = await addTicketType(t, eventId, { name: 'Crew', crew: true });

  const orderId = await pendingOrder('2030-03-05T03:00:00.000Z', 3000);
  // Previous week (2 to 8 March in Tokyo): 7 tickets on the 3rd, plus the pending order's (5th).
  await registerAt('2030-03-03T03:00:00Z', general, 7);
  // 23:30 UTC on the 10th is 08:30 on the 11th in Tokyo.
  await registerAt('2030-03-10T23:30:00Z', general, 1);
  await registerAt('2030-03-12T03:00:00Z', general, 13);
  // Crew tickets are left out.
  await registerAt('2030-03-13T03:00:00Z', crew, 5);
  // A cancelled ticket is not valid.
  const cancelled = await registerAt('2030-03-14T03:00:00Z', general, 1);
  const cancel = await t.api(`/events/${eventId}/attendees/${cancelled.attendees[0].attendeeId}/cancel`, {
    key,
    method: 'POST',
  });
  expect(cancel.status).toBe(200);
  // The pending order is paid on the 14th.
  setClock(clock, '2030-03-14T05:00:00Z');
  await markOrderPaid(await operatorContext(t.server.services, workspaceId), orderId);

  // A second event without limits, selling only this week.
  setClock(clock, '2030-02-01T00:00:00Z');
  const second = await t.api('/events', {
    key,
    method: 'POST',
    body: eventBody({
      timeZone: 'Asia/Tokyo',
      currency: 'JPY',
      startsLocal: '2030-03-25T10:00',
      endsLocal: '2030-03-25T18:00',
    }),
  });
  unlimitedEventId = second.body.eventId;
  const open = await addTicketType(t, unlimitedEventId, { name: 'Open' });
  await registerAt('2030-03-13T03:00:00Z', open, 7, unlimitedEventId);

  setClock(clock, now);
});
afterAll(async () => t.close());

const pace = (query = '', target = eventId) => t.api(`/events/${target}/sales${query}`, { key });

describe('GET /events/{eventId}/sales', () => {
  it('answers the last 30 venue days by default, oldest first, ending today in the event zone', async () => {
    const res = await pace();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eventId, currency: 'JPY', timeZone: 'Asia/Tokyo' });
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days[0].date).toBe('2030-02-14');
    expect(res.body.days.at(-1).date).toBe('2030-03-15');
    const dates = res.body.days.map((d: { date: string }) => d.date);
    expect([...dates].sort()).toEqual(dates);
  });

  it('takes days from 7 to 90 and refuses 6 and 91 with 400 invalidRequest', async () => {
    expect((await pace('?days=7')).body.days).toHaveLength(7);
    expect((await pace('?days=90')).body.days).toHaveLength(90);
    for (const days of ['6', '91', 'many']) {
      const body = expectProblem(await pace(`?days=${days}`), 400, 'invalidRequest');
      expect(body.errors[0].field).toBe('days');
    }
  });

  it('counts a ticket made at 23:30 UTC on the next venue day in Asia/Tokyo', async () => {
    const days = new Map((await pace()).body.days.map((d: any) => [d.date, d]));
    expect(days.get('2030-03-10')).toMatchObject({ tickets: 0 });
    expect(days.get('2030-03-11')).toMatchObject({ tickets: 1 });
  });

  it('counts days of 23 hours right: Oslo moving its clocks forward on 31 March 2030', async () => {
    setClock(clock, '2030-02-01T00:00:00Z');
    const made = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({
        timeZone: 'Europe/Oslo',
        startsLocal: '2030-04-20T10:00',
        endsLocal: '2030-04-20T18:00',
      }),
    });
    const oslo = made.body.eventId;
    const open = await addTicketType(t, oslo, { name: 'Open' });
    // 23:30 on the 30th (UTC+1); 00:30 on the 31st; 00:30 on 1 April (UTC+2 by then).
    await registerAt('2030-03-30T22:30:00Z', open, 1, oslo);
    await registerAt('2030-03-30T23:30:00Z', open, 2, oslo);
    await registerAt('2030-03-31T22:30:00Z', open, 3, oslo);
    setClock(clock, '2030-04-02T10:00:00Z');
    const days = (await pace('?days=7', oslo)).body.days.map((d: any) => [d.date, d.tickets]);
    setClock(clock, now);
    expect(days).toEqual([
      ['2030-03-27', 0],
      ['2030-03-28', 0],
      ['2030-03-29', 0],
      ['2030-03-30', 1],
      ['2030-03-31', 2],
      ['2030-04-01', 3],
      ['2030-04-02', 0],
    ]);
  });

  it('counts valid tickets made each day, leaving crew and cancelled tickets out, and orders paid each day with their revenue', async () => {
    const days = new Map((await pace()).body.days.map((d: any) => [d.date, d]));
    expect(days.get('2030-03-03')).toEqual({ date: '2030-03-03', tickets: 7, orders: 0, revenue: 0 });
    // The pending order's ticket became valid when paid: it counts on the day it was made.
    expect(days.get('2030-03-05')).toMatchObject({ tickets: 1, orders: 0 });
    expect(days.get('2030-03-12')).toMatchObject({ tickets: 13 });
    expect(days.get('2030-03-13')).toMatchObject({ tickets: 0 });
    expect(days.get('2030-03-14')).toEqual({ date: '2030-03-14', tickets: 0, orders: 1, revenue: 3000 });
  });

  it('sums the last seven days and, from 14 days up, the seven before with the change in percent', async () => {
    const body = (await pace()).body;
    expect(body.lastSevenDays).toEqual({ tickets: 14, revenue: 3000 });
    expect(body.previousSevenDays).toEqual({ tickets: 8, revenue: 0 });
    expect(body.change).toBe(75);
    expect(body.ticketsPerDay).toBe(2);
  });

  it('leaves previousSevenDays and change null under 14 days and gives them from 14', async () => {
    for (const days of [7, 13]) {
      const body = (await pace(`?days=${days}`)).body;
      expect(body.previousSevenDays, String(days)).toBeNull();
      expect(body.change).toBeNull();
      expect(body.lastSevenDays).toEqual({ tickets: 14, revenue: 3000 });
    }
    const fourteen = (await pace('?days=14')).body;
    expect(fourteen.previousSevenDays).toEqual({ tickets: 8, revenue: 0 });
    expect(fourteen.change).toBe(75);
  });

  it('projects registrations by the first day and the days until sold out at this pace', async () => {
    const body = (await pace()).body;
    expect(body.registered).toBe(22);
    expect(body.capacity).toBe(100);
    expect(body.daysToGo).toBe(30);
    // 22 + 2 a day for 30 days; 78 places left at 2 a day.
    expect(body.projected).toBe(82);
    expect(body.soldOutIn).toBe(39);
  });

  it('caps the projection at the capacity, and answers soldOutIn 0 when no place is left', async () => {
    const patch = (capacity: number) =>
      t.api(`/events/${eventId}/ticket-types/${general}`, { key, method: 'PATCH', body: { capacity } });
    expect((await patch(50)).status).toBe(200);
    let body = (await pace()).body;
    expect(body.capacity).toBe(50);
    expect(body.projected).toBe(50);
    expect(body.soldOutIn).toBe(14);
    expect((await patch(22)).status).toBe(200);
    body = (await pace()).body;
    expect(body.projected).toBe(22);
    expect(body.soldOutIn).toBe(0);
    expect((await patch(100)).status).toBe(200);
  });

  it('gives capacity and soldOutIn null without a limit, and change null without sales the week before', async () => {
    const body = (await pace('', unlimitedEventId)).body;
    expect(body.registered).toBe(7);
    expect(body.capacity).toBeNull();
    expect(body.soldOutIn).toBeNull();
    expect(body.previousSevenDays).toEqual({ tickets: 0, revenue: 0 });
    expect(body.change).toBeNull();
    expect(body.ticketsPerDay).toBe(1);
    expect(body.daysToGo).toBe(10);
    expect(body.projected).toBe(17);
  });

  it('needs orders:read (403 missingScope) and answers 404 eventNotFound for an unknown event', async () => {
    const { key: events } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const res = await t.api(`/events/${eventId}/sales`, { key: events });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('orders:read');
    expectProblem(await pace('', '00000000-0000-4000-8000-000000000040'), 404, 'eventNotFound');
  });
});
