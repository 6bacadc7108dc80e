// Cancelling a ticket and correcting details (spec "States and transitions", Attendee, attendee
// family events; issue "Sales core" 7 and 8): cancelled and no longer valid, the place freed,
// alreadyCancelled, the order cancelled with its last ticket, changedUtc = updatedUtc moving on
// every change of attendee or order, and attendee.updated only when something changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { expectProblem } from '../support/fixtures';
import { outbox, person, register, sampleIds } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let key: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;
let standard: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Cancel and update workspace', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  standard = ids.ticketType('summit', 'standard');
});
afterAll(async () => t.close());

const cancel = (attendeeId: string, k = key) =>
  t.api(`/events/${summit}/attendees/${attendeeId}/cancel`, { key: k, method: 'POST' });
const correct = (attendeeId: string, body: Record<string, unknown>) =>
  t.api(`/events/${summit}/attendees/${attendeeId}`, { key, method: 'PATCH', body });
const attendee = async (attendeeId: string) =>
  (await t.api(`/events/${summit}/attendees/${attendeeId}`, { key })).body;
const ticketType = async (id: string) => (await t.api(`/events/${summit}/ticket-types/${id}`, { key })).body;
const order = async (orderId: string) => (await t.api(`/events/${summit}/orders/${orderId}`, { key })).body;
const messagesAbout = async (attendeeId: string, type: string) =>
  (await outbox(t, workspaceId)).filter(
    (m) => m.type === type && m.payload.data.attendee.attendeeId === attendeeId,
  );

describe('POST /events/{eventId}/attendees/{attendeeId}/cancel', () => {
  it('cancels the ticket: status cancelled, valid false, the place freed, attendee.cancelled sent', async () => {
    const made = (await register(t, key, summit, [person(standard), person(standard)])).body;
    const [a] = made.attendees;
    const before = await ticketType(standard);
    const res = await cancel(a.attendeeId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ attendeeId: a.attendeeId, status: 'cancelled', valid: false });
    expect(await attendee(a.attendeeId)).toEqual(res.body);
    expect((await ticketType(standard)).taken).toBe(before.taken - 1);

    const messages = await messagesAbout(a.attendeeId, 'attendee.cancelled');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload.data.attendee).toMatchObject({ status: 'cancelled', valid: false });
    expect(messages[0]!.payload.data.event).toEqual({
      eventId: summit,
      slug: expect.stringMatching(/^nordic-product-summit-2027-[0-9a-f]{6}$/),
      name: 'Nordic Product Summit 2027',
    });
  });

  it('refuses a ticket already cancelled with 409 alreadyCancelled, freeing nothing twice', async () => {
    const made = (await register(t, key, summit, [person(standard)])).body;
    const id = made.attendees[0].attendeeId;
    expect((await cancel(id)).status).toBe(200);
    const taken = (await ticketType(standard)).taken;
    const messages = (await outbox(t, workspaceId)).length;
    expectProblem(await cancel(id), 409, 'alreadyCancelled');
    expect((await ticketType(standard)).taken).toBe(taken);
    expect((await outbox(t, workspaceId)).length).toBe(messages);
  });

  it('gives back an included add-on place with the ticket', async () => {
    const vip = ids.ticketType('summit', 'vip');
    const dinner = async () =>
      (await t.api(`/events/${summit}/add-ons`, { key })).body.data.find(
        (x: any) => x.name === 'Conference dinner',
      );
    const made = (await register(t, key, summit, [person(vip)])).body;
    const held = (await dinner()).taken;
    const vipTaken = (await ticketType(vip)).taken;
    expect((await cancel(made.attendees[0].attendeeId)).status).toBe(200);
    expect((await dinner()).taken).toBe(held - 1);
    expect((await ticketType(vip)).taken).toBe(vipTaken - 1);
  });

  it('cancels the order when its last ticket is cancelled, not before', async () => {
    const made = (await register(t, key, summit, [person(standard), person(standard)])).body;
    const [a, b] = made.attendees;
    expect((await cancel(a.attendeeId)).status).toBe(200);
    expect(await order(made.orderId)).toMatchObject({ status: 'free', attendees: 1 });
    expect((await attendee(b.attendeeId)).valid).toBe(true);
    const last = await cancel(b.attendeeId);
    expect(last.body).toMatchObject({ status: 'cancelled', orderStatus: 'cancelled', valid: false });
    expect(await order(made.orderId)).toMatchObject({ status: 'cancelled', attendees: 0 });
    expect((await attendee(a.attendeeId)).orderStatus).toBe('cancelled');
  });

  it('answers 404 attendeeNotFound for an unknown attendee and needs attendees:write', async () => {
    expectProblem(await cancel('00000000-0000-4000-8000-000000000070'), 404, 'attendeeNotFound');
    const { key: readOnly } = await t.key({ workspaceId, scopes: ['attendees:read'], expires: 'never' });
    const made = (await register(t, key, summit, [person(standard)])).body;
    const res = await cancel(made.attendees[0].attendeeId, readOnly);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('attendees:write');
    expect((await attendee(made.attendees[0].attendeeId)).status).toBe('active');
  });
});

describe('changedUtc and updatedUtc', () => {
  it('moves on a cancellation, for the ticket and for the other tickets of its order', async () => {
    const made = (await register(t, key, summit, [person(standard), person(standard)])).body;
    const [a, b] = made.attendees;
    expect(a.changedUtc).toBe(a.updatedUtc);
    clock.advance(60_000);
    const cancelled = (await cancel(a.attendeeId)).body;
    expect(cancelled.changedUtc).toBe(cancelled.updatedUtc);
    expect(cancelled.updatedUtc > a.updatedUtc).toBe(true);
    // b's order changed, so b changed too.
    const other = await attendee(b.attendeeId);
    expect(other.changedUtc).toBe(other.updatedUtc);
    expect(other.updatedUtc > b.updatedUtc).toBe(true);
    const since = await t.api(
      `/events/${summit}/attendees?updatedSince=${encodeURIComponent(cancelled.updatedUtc)}`,
      { key },
    );
    expect(since.body.data.map((x: any) => x.attendeeId)).toEqual(
      expect.arrayContaining([a.attendeeId, b.attendeeId]),
    );
  });

  it('moves on a correction of the attendee', async () => {
    const made = (await register(t, key, summit, [person(standard)])).body;
    const a = made.attendees[0];
    clock.advance(60_000);
    const res = await correct(a.attendeeId, { company: 'Sakura Systems' });
    expect(res.status).toBe(200);
    expect(res.body.company).toBe('Sakura Systems');
    expect(res.body.changedUtc).toBe(res.body.updatedUtc);
    expect(res.body.updatedUtc > a.updatedUtc).toBe(true);
  });

  it('moves when the order is paid', async () => {
    const pending = (await t.api(`/events/${summit}/orders?sort=-created&status=pending&limit=1`, { key }))
      .body.data[0];
    const tickets = (await t.api(`/events/${summit}/attendees?limit=500`, { key })).body.data.filter(
      (x: any) => x.orderId === pending.orderId,
    );
    expect(tickets.length).toBeGreaterThan(0);
    clock.advance(60_000);
    const paid = await markOrderPaid(await operatorContext(t.server.services, workspaceId), pending.orderId);
    for (const before of tickets) {
      const after = await attendee(before.attendeeId);
      expect(after.orderStatus).toBe('paid');
      expect(after.changedUtc).toBe(after.updatedUtc);
      expect(after.updatedUtc).toBe(paid.updatedUtc);
      expect(after.updatedUtc > before.updatedUtc).toBe(true);
      expect(after.valid).toBe(after.status === 'active');
      // A payment is not a correction.
      expect(await messagesAbout(before.attendeeId, 'attendee.updated')).toHaveLength(0);
    }
  });
});

describe('PATCH /events/{eventId}/attendees/{attendeeId}', () => {
  it('corrects names, job title and answers (merged by question) and sends attendee.updated', async () => {
    const diet = ids.question('summit', 'diet');
    const size = ids.question('summit', 'size');
    const made = (await register(t, key, summit, [person(standard, { answers: { [diet]: 'vegan' } })])).body;
    const id = made.attendees[0].attendeeId;
    clock.advance(60_000);
    const res = await correct(id, { firstName: 'Corrected', jobTitle: 'Founder', answers: { [size]: 'M' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Corrected',
      lastName: made.attendees[0].lastName,
      jobTitle: 'Founder',
      answers: { [diet]: 'vegan', [size]: 'M' },
    });
    const messages = await messagesAbout(id, 'attendee.updated');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload.data.attendee).toEqual(res.body);
  });

  it('sends nothing and changes nothing when nothing changed', async () => {
    const made = (await register(t, key, summit, [person(standard, { company: 'Same Co' })])).body;
    const a = made.attendees[0];
    clock.advance(60_000);
    const before = (await outbox(t, workspaceId)).length;
    const res = await correct(a.attendeeId, { firstName: a.firstName, company: 'Same Co' });
    expect(res.status).toBe(200);
    expect(res.body.updatedUtc).toBe(a.updatedUtc);
    expect((await outbox(t, workspaceId)).length).toBe(before);
  });

  it('sends attendee.cancelled, not attendee.updated, for a cancellation', async () => {
    const made = (await register(t, key, summit, [person(standard)])).body;
    const id = made.attendees[0].attendeeId;
    expect((await cancel(id)).status).toBe(200);
    expect(await messagesAbout(id, 'attendee.cancelled')).toHaveLength(1);
    expect(await messagesAbout(id, 'attendee.updated')).toHaveLength(0);
  });

  it('refuses an answer outside the options with 400 invalidRequest and changes nothing', async () => {
    const made = (await register(t, key, summit, [person(standard)])).body;
    const id = made.attendees[0].attendeeId;
    const res = await correct(id, { answers: { [ids.question('summit', 'diet')]: 'pizza' } });
    expectProblem(res, 400, 'invalidRequest');
    expect((await attendee(id)).answers).toBeNull();
  });
});
