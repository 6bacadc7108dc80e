// Outbox messages: written in the same transaction as
// the change, so a refused change writes none; the data shapes of attendee.registered, order.paid
// and attendee.erased; erasure nulls a person's details everywhere, earlier messages included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { expectProblem } from '../support/fixtures';
import { countRows, outbox, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;
let standard: string;
let vip: string;

const summitRef = {
  slug: expect.stringMatching(/^nordic-product-summit-2027-[0-9a-f]{6}$/),
  name: 'Nordic Product Summit 2027',
};
const personalFields = ['firstName', 'lastName', 'email', 'company', 'jobTitle', 'answers'] as const;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Outbox workspace', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  standard = ids.ticketType('summit', 'standard');
  vip = ids.ticketType('summit', 'vip');
});
afterAll(async () => t.close());

const operator = () => operatorContext(t.server.services, workspaceId);
const newMessages = async (after: number) => (await outbox(t, workspaceId)).filter((m) => m.id > after);
const lastMessageId = async () => (await outbox(t, workspaceId)).at(-1)?.id ?? 0;
const taken = async (ticketTypeId: string) =>
  (await t.api(`/events/${summit}/ticket-types/${ticketTypeId}`, { key })).body.taken;

describe('attendee.registered', () => {
  it('is written once per registered attendee with data { event: { eventId, slug, name }, attendee }', async () => {
    const mark = await lastMessageId();
    const res = await register(t, key, summit, [person(standard), person(standard), person(vip)]);
    expect(res.status).toBe(201);
    const messages = await newMessages(mark);
    expect(messages.map((m) => m.type)).toEqual([
      'attendee.registered',
      'attendee.registered',
      'attendee.registered',
    ]);
    expect(new Set(messages.map((m) => m.messageId)).size).toBe(3);
    // Time-ordered, so the outbox's unique index on them grows at its end: a later write's sort after.
    await register(t, key, summit, [person(standard)]);
    const inOrder = (await newMessages(mark)).map((m) => m.messageId);
    expect(inOrder).toHaveLength(4);
    expect(inOrder).toEqual([...inOrder].sort());
    for (const [i, m] of messages.entries()) {
      expect(m.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(m.eventId).toBe(summit);
      expect(Object.keys(m.payload).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(m.payload.type).toBe('attendee.registered');
      expect(Number.isNaN(Date.parse(m.payload.timestamp))).toBe(false);
      expect(Object.keys(m.payload.data).sort()).toEqual(['attendee', 'event']);
      expect(m.payload.data.event).toEqual({ eventId: summit, ...summitRef });
      const attendee = res.body.attendees[i];
      expect(m.payload.data.attendee).toEqual(attendee);
      const read = await t.api(`/events/${summit}/attendees/${attendee.attendeeId}`, { key });
      expect(m.payload.data.attendee).toEqual(read.body);
    }
  });

  it('carries the personal details, whatever the scopes of the key that registered', async () => {
    const { key: noPeople } = await t.key({ workspaceId, scopes: ['attendees:write'] });
    const mark = await lastMessageId();
    const someone = person(standard);
    const res = await register(t, noPeople, summit, [someone]);
    expect(res.body.attendees[0].firstName).toBeNull();
    const [message] = await newMessages(mark);
    expect(message!.payload.data.attendee).toMatchObject({
      firstName: someone.firstName,
      email: someone.email,
      personalData: 'included',
    });
  });
});

describe('the same transaction as the change', () => {
  it('writes no message, no order and takes no place for a registration refused as soldOut', async () => {
    const vipTaken = await taken(vip);
    const full = await t.api(`/events/${summit}/ticket-types/${vip}`, {
      key,
      method: 'PATCH',
      body: { capacity: vipTaken },
    });
    expect(full.status).toBe(200);
    const standardTaken = await taken(standard);
    const orders = await countRows(t, 'orders', summit);
    const attendees = await countRows(t, 'attendees', summit);
    const mark = await lastMessageId();

    // The Standard places are taken first, then VIP is found sold out: all of it is undone.
    const res = await register(t, key, summit, [person(standard), person(standard), person(vip)]);
    expect(expectProblem(res, 400, 'soldOut').ticketTypeId).toBe(vip);
    expect(await newMessages(mark)).toEqual([]);
    expect(await countRows(t, 'orders', summit)).toBe(orders);
    expect(await countRows(t, 'attendees', summit)).toBe(attendees);
    expect(await taken(standard)).toBe(standardTaken);
    expect(await taken(vip)).toBe(vipTaken);
    await t.api(`/events/${summit}/ticket-types/${vip}`, { key, method: 'PATCH', body: { capacity: 12 } });
  });

  it('undoes the ticket places taken when an included add-on turns out sold out (registrationRefused)', async () => {
    const db = t.server.services.db;
    const dinner = ids.addOn('summit', 'dinner');
    const row = await db.selectFrom('add_ons').selectAll().where('id', '=', dinner).executeTakeFirstOrThrow();
    await db.updateTable('add_ons').set({ capacity: row.taken }).where('id', '=', dinner).execute();
    const vipTaken = await taken(vip);
    const orders = await countRows(t, 'orders', summit);
    const mark = await lastMessageId();

    const res = await register(t, key, summit, [person(vip)]);
    expect(expectProblem(res, 400, 'registrationRefused').reason).toBe('addOnSoldOut');
    expect(await taken(vip)).toBe(vipTaken);
    expect(await countRows(t, 'orders', summit)).toBe(orders);
    expect(await newMessages(mark)).toEqual([]);
    await db.updateTable('add_ons').set({ capacity: row.capacity }).where('id', '=', dinner).execute();
  });

  it('writes no message for a registration refused as invalid or unknownTicket', async () => {
    const mark = await lastMessageId();
    expectProblem(await register(t, key, summit, [{ ...person(standard), email: 'nope' }]), 400, 'invalid');
    expectProblem(
      await register(t, key, summit, [person('00000000-0000-4000-8000-000000000080')]),
      400,
      'unknownTicket',
    );
    expect(await newMessages(mark)).toEqual([]);
  });
});

describe('order.paid', () => {
  it('is written with { event, order } when an order is marked paid, with attendee.registered for its tickets', async () => {
    const pending = (await t.api(`/events/${summit}/orders?sort=-created&status=pending&limit=1`, { key }))
      .body.data[0];
    const tickets = (await t.api(`/events/${summit}/attendees?limit=500`, { key })).body.data.filter(
      (a: any) => a.orderId === pending.orderId,
    );
    const mark = await lastMessageId();
    const answer = await markOrderPaid(await operator(), pending.orderId, 'bank');
    const messages = await newMessages(mark);

    const paid = messages.filter((m) => m.type === 'order.paid');
    expect(paid).toHaveLength(1);
    expect(Object.keys(paid[0]!.payload.data).sort()).toEqual(['event', 'order']);
    expect(paid[0]!.payload.data.event).toEqual({ eventId: summit, ...summitRef });
    const read = (await t.api(`/events/${summit}/orders/${pending.orderId}`, { key })).body;
    expect(read).toMatchObject({ status: 'paid', paymentProvider: 'bank' });
    expect(read.paidUtc).not.toBeNull();
    expect(paid[0]!.payload.data.order).toEqual(read);
    // The answer is the order as read, naming the invoice the payment issued (the summit invoices).
    const { invoice, ...order } = answer as typeof answer & {
      invoice?: { invoiceId: string; number: string };
    };
    expect(order).toEqual(read);
    const invoices = (await t.api(`/events/${summit}/invoices?limit=500`, { key })).body.data;
    const issued = invoices.find((i: { orderId: string }) => i.orderId === pending.orderId);
    expect(invoice).toEqual(issued ? { invoiceId: issued.invoiceId, number: issued.number } : undefined);

    const registered = messages.filter((m) => m.type === 'attendee.registered');
    const active = tickets.filter((a: any) => a.status === 'active');
    expect(registered.map((m) => m.payload.data.attendee.attendeeId).sort()).toEqual(
      active.map((a: any) => a.attendeeId).sort(),
    );
    for (const m of registered)
      expect(m.payload.data.attendee).toMatchObject({ orderStatus: 'paid', valid: true });
    expect(messages).toHaveLength(1 + active.length);
  });

  it('writes nothing when the order cannot be marked paid', async () => {
    const paid = (await t.api(`/events/${summit}/orders?sort=-created&status=declined&limit=1`, { key })).body
      .data[0];
    const mark = await lastMessageId();
    await expect(markOrderPaid(await operator(), paid.orderId)).rejects.toMatchObject({
      code: 'orderNotAwaitingPayment',
    });
    expect(await newMessages(mark)).toEqual([]);
  });
});

describe('erasure', () => {
  it('nulls the person everywhere (tickets, orders bought, earlier messages) and writes attendee.erased', async () => {
    const db = t.server.services.db;
    const meetup = ids.event('meetup');
    const erasedOne = person(standard, { firstName: 'Zelda', lastName: 'Erasable', company: 'Gone AS' });
    const email = erasedOne.email as string;
    const colleague = person(standard);
    // Two tickets of the person at two events, one of them in an order with a colleague.
    const first = (await register(t, key, summit, [erasedOne, colleague])).body;
    const second = (
      await register(t, key, meetup, [{ ...erasedOne, ticketTypeId: ids.ticketType('meetup', 'general') }])
    ).body;
    // The person also buys an order that is paid later (order.paid carries their details).
    const pending = (await t.api(`/events/${summit}/orders?sort=-created&status=requested&limit=1`, { key }))
      .body.data[0];
    await db
      .updateTable('orders')
      .set({ buyer_name: 'Zelda Erasable', buyer_email: email, buyer_company: 'Gone AS' })
      .where('id', '=', pending.orderId)
      .execute();
    // A requested order is approved first (order.approved carries their details too), then paid.
    const approved = await t.api(`/events/${summit}/orders/${pending.orderId}/approve`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await markOrderPaid(await operator(), pending.orderId);
    const before = JSON.stringify((await outbox(t, workspaceId)).map((m) => m.payload));
    expect(before).toContain(email);
    expect(before).toContain('Erasable');

    const mark = await lastMessageId();
    const result = await erasePerson(await operator(), { email: email.toUpperCase() });
    expect(result).toMatchObject({
      attendees: 2,
      orders: 3,
      passHolders: 0,
      speakers: 0,
      communityMembers: 0,
    });

    // Tickets: erased, nothing personal, even with people:read.
    const tickets = [
      { eventId: summit, attendeeId: first.attendees[0].attendeeId },
      { eventId: meetup, attendeeId: second.attendees[0].attendeeId },
    ];
    for (const { eventId, attendeeId } of tickets) {
      const a = (await t.api(`/events/${eventId}/attendees/${attendeeId}`, { key })).body;
      expect(a).toMatchObject({ erased: true, personalData: 'erased' });
      for (const field of personalFields) expect(a[field], field).toBeNull();
    }
    // Orders they bought: buyer details gone.
    for (const [eventId, orderId] of [
      [summit, first.orderId],
      [meetup, second.orderId],
      [summit, pending.orderId],
    ]) {
      const o = (await t.api(`/events/${eventId}/orders/${orderId}`, { key })).body;
      expect(o).toMatchObject({
        buyerName: null,
        buyerEmail: null,
        buyerCompany: null,
        erased: true,
        personalData: 'erased',
      });
    }
    // The colleague keeps their details.
    const kept = (await t.api(`/events/${summit}/attendees/${first.attendees[1].attendeeId}`, { key })).body;
    expect(kept).toMatchObject({ firstName: colleague.firstName, erased: false, personalData: 'included' });

    // attendee.erased for each ticket, with nothing personal.
    const erased = (await newMessages(mark)).filter((m) => m.type === 'attendee.erased');
    expect(erased.map((m) => m.payload.data.attendee.attendeeId).sort()).toEqual(
      tickets.map((x) => x.attendeeId).sort(),
    );
    for (const m of erased) {
      expect(Object.keys(m.payload.data).sort()).toEqual(['attendee', 'event']);
      expect(m.payload.data.attendee).toMatchObject({ erased: true, personalData: 'erased' });
      for (const field of personalFields) expect(m.payload.data.attendee[field], field).toBeNull();
    }
    expect(erased.find((m) => m.eventId === meetup)!.payload.data.event).toEqual({
      eventId: meetup,
      slug: expect.stringMatching(/^tokyo-frontend-meetup-42-[0-9a-f]{6}$/),
      name: 'Tokyo Frontend Meetup #42',
    });

    // Earlier messages no longer carry the person's details, nor does any table.
    const after = await outbox(t, workspaceId);
    const afterText = JSON.stringify(after.map((m) => m.payload));
    expect(afterText).not.toContain(email);
    expect(afterText).not.toContain('Erasable');
    for (const m of after.filter((x) => x.type === 'attendee.registered')) {
      if (tickets.some((x) => x.attendeeId === m.payload.data.attendee.attendeeId))
        expect(m.payload.data.attendee).toMatchObject({
          erased: true,
          personalData: 'erased',
          firstName: null,
        });
    }
    const paidMessage = after.find(
      (m) => m.type === 'order.paid' && m.payload.data.order.orderId === pending.orderId,
    );
    expect(paidMessage!.payload.data.order).toMatchObject({
      buyerName: null,
      erased: true,
      personalData: 'erased',
    });
    const left = await db
      .selectFrom('attendees')
      .select('id')
      .where((eb) => eb.or([eb('email', '=', email), eb('last_name', '=', 'Erasable')]))
      .execute();
    expect(left).toEqual([]);
    const leftOrders = await db.selectFrom('orders').select('id').where('buyer_email', '=', email).execute();
    expect(leftOrders).toEqual([]);

    // Search no longer finds them.
    const search = await t.api(`/events/${summit}/attendees/search?q=Erasable`, { key });
    expect(search.body.data).toEqual([]);
  });

  it('erases one ticket by attendee id', async () => {
    const made = (await register(t, key, summit, [person(standard)])).body;
    const id = made.attendees[0].attendeeId;
    const mark = await lastMessageId();
    expect((await erasePerson(await operator(), { attendeeId: id })).attendees).toBe(1);
    const a = (await t.api(`/events/${summit}/attendees/${id}`, { key })).body;
    expect(a).toMatchObject({ erased: true, personalData: 'erased', email: null });
    expect((await newMessages(mark)).map((m) => m.type)).toEqual(['attendee.erased']);
  });
});
