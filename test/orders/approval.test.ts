// Orders that wait for approval (issue 52, item 3), over HTTPS, MCP and the public form: a ticket
// type requiring approval makes an order (or a free registration) requested, its places held and no
// ticket valid, the buyer told their request was received; approve makes it free (tickets valid and
// sent) or awaiting its transfer (the instructions e-mailed), decline releases its places and the
// discount code's uses and tells the buyer kindly, with the reason; each decision once (409
// orderNotRequested after), mark-paid refused until approved, and the organiser's own paid-elsewhere
// or complimentary orders need none. order.approved and order.declined reach a webhook endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
import { callTool, outbox, person } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, publishedEvent, sendForm } from '../support/sign-up';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let smtp: SmtpTestServer;
let receiver: Receiver;
let workspaceId: string;
let key: string;
let eventId: string;
let slug: string;

const db = () => t.server.services.db;
const orders = () => `/events/${eventId}/orders`;
const post = (path: string, body: Record<string, unknown> = {}) => t.api(path, { key, method: 'POST', body });
const approve = (orderId: string) => post(`${orders()}/${orderId}/approve`);
const decline = (orderId: string, body: Record<string, unknown> = {}) =>
  post(`${orders()}/${orderId}/decline`, body);

/** A ticket type of the event requiring approval, through the API (requiresApproval). */
async function approvalType(body: Record<string, unknown>): Promise<string> {
  const made = await post(`/events/${eventId}/ticket-types`, { requiresApproval: true, ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.requiresApproval).toBe(true);
  return made.body.ticketTypeId;
}

const taken = async (typeId: string) =>
  (await db().selectFrom('ticket_types').select('taken').where('id', '=', typeId).executeTakeFirstOrThrow())
    .taken;
const codeUsed = async (id: string) =>
  (await db().selectFrom('discount_codes').select('used').where('id', '=', id).executeTakeFirstOrThrow())
    .used;
const messages = async (type: string, orderId: string) =>
  (await outbox(t, workspaceId)).filter((m) => m.type === type && JSON.stringify(m.payload).includes(orderId))
    .length;
const mailOf = (orderId: string) =>
  db()
    .selectFrom('mail_messages')
    .select(['cause_kind', 'recipient', 'subject', 'text_body', 'attendee_id'])
    .where('order_id', '=', orderId)
    .orderBy('created_utc')
    .orderBy('id')
    .execute();
const ticketsOf = async (orderId: string) =>
  (await t.api(`/events/${eventId}/attendees?limit=500`, { key })).body.data.filter(
    (a: { orderId: string }) => a.orderId === orderId,
  );

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  t = await startTestServer({
    env: {
      TESSERA_SMTP_URL: smtp.url,
      TESSERA_MAIL_FROM: 'tickets@tessera.test',
      TESSERA_SECRET_KEY: 'approval-test-master-key-0123456789abcdef',
    },
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  ({ workspaceId } = await t.workspace('Approval', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ eventId, slug } = await publishedEvent(t, key, eventBody({ currency: 'EUR' })));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await receiver?.close();
});

describe('an order of a type requiring approval', () => {
  it('waits as requested: places held (sold out for others), no ticket valid, no attendee.registered, the buyer told the request was received', async () => {
    const typeId = await approvalType({ name: 'Student', price: 100, vatRate: 25, capacity: 2 });
    const buyer = person(typeId);
    const made = await post(orders(), { attendees: [buyer, person(typeId)] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'requested', total: 200, attendees: 2, declineReason: null });
    expect(await taken(typeId)).toBe(2);
    expectProblem(await post(orders(), { attendees: [person(typeId)] }), 400, 'soldOut');

    const tickets = await ticketsOf(made.body.orderId);
    expect(tickets.map((a: { valid: boolean; orderStatus: string }) => [a.valid, a.orderStatus])).toEqual([
      [false, 'requested'],
      [false, 'requested'],
    ]);
    expect(await messages('attendee.registered', made.body.orderId)).toBe(0);
    const mail = await mailOf(made.body.orderId);
    expect(mail.map((m) => m.cause_kind)).toEqual(['requestReceived']);
    expect(mail[0]!.recipient).toBe(String(buyer.email).toLowerCase());
    expect(mail[0]!.subject).toContain('We received your request');
    expect(mail[0]!.text_body).toContain(`Request reference: ${made.body.reference}`);
    expect(mail[0]!.text_body).toContain('2 × Student');
    expect(mail[0]!.text_body).toContain('There is nothing to pay yet');
    // The order list filters by it.
    const listed = (await t.api(`${orders()}?status=requested`, { key })).body.data;
    expect(listed.map((o: { orderId: string }) => o.orderId)).toContain(made.body.orderId);
  });

  it('refuses mark-paid until approved: 409 orderNotAwaitingPayment naming the approval', async () => {
    const typeId = await approvalType({ name: 'Press', price: 50, vatRate: 25 });
    const made = await post(orders(), { attendees: [person(typeId)] });
    const paid = await post(`${orders()}/${made.body.orderId}/mark-paid`, {
      method: 'transfer',
      provider: 'DNB',
    });
    const problem = expectProblem(paid, 409, 'orderNotAwaitingPayment');
    expect(problem.orderStatus).toBe('requested');
    expect(problem.detail).toContain('approve it first (POST /events/{eventId}/orders/{orderId}/approve)');
    expect((await t.api(`${orders()}/${made.body.orderId}`, { key })).body.status).toBe('requested');
  });

  it('needs none when the organiser decided already: paid elsewhere or complimentary', async () => {
    const typeId = await approvalType({ name: 'Workshop', price: 80, vatRate: 25 });
    const elsewhere = await post(orders(), {
      attendees: [person(typeId)],
      payment: { kind: 'paidElsewhere', method: 'cash' },
    });
    expect(elsewhere.body).toMatchObject({ status: 'paid' });
    const guest = await post(orders(), {
      attendees: [person(typeId)],
      payment: { kind: 'complimentary', reason: 'speaker' },
    });
    expect(guest.body).toMatchObject({ status: 'free', complimentaryReason: 'speaker' });
    for (const made of [elsewhere, guest]) {
      expect(await messages('attendee.registered', made.body.orderId)).toBe(1);
      expect((await mailOf(made.body.orderId)).map((m) => m.cause_kind)).not.toContain('requestReceived');
    }
  });
});

describe('approving', () => {
  it('asks for the payment of a priced request: transfer, the instructions e-mailed, order.approved; twice is 409 orderNotRequested', async () => {
    const typeId = await approvalType({ name: 'Fellow', price: 250, vatRate: 25 });
    const made = await post(orders(), { attendees: [person(typeId)] });
    const approved = await approve(made.body.orderId);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ orderId: made.body.orderId, status: 'transfer', total: 250 });
    expect((await mailOf(made.body.orderId)).map((m) => m.cause_kind)).toEqual([
      'requestReceived',
      'transferInstructions',
    ]);
    expect(await messages('order.approved', made.body.orderId)).toBe(1);
    // Not valid before the money is in.
    expect(await messages('attendee.registered', made.body.orderId)).toBe(0);
    expect((await ticketsOf(made.body.orderId))[0].valid).toBe(false);
    const again = expectProblem(await approve(made.body.orderId), 409, 'orderNotRequested');
    expect(again.orderStatus).toBe('transfer');
    expectProblem(await decline(made.body.orderId), 409, 'orderNotRequested');
    // Now it can be marked paid.
    const paid = await post(`${orders()}/${made.body.orderId}/mark-paid`, {
      method: 'transfer',
      provider: 'DNB',
    });
    expect(paid.body.status).toBe('paid');
  });

  it('issues the tickets of a free registration needing approval: valid, attendee.registered and their e-mails', async () => {
    const typeId = await approvalType({ name: 'Community day', price: 0, capacity: 10 });
    const registered = await post(`/events/${eventId}/attendees`, {
      attendees: [person(typeId), person(typeId)],
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const { orderId } = registered.body;
    expect(registered.body.attendees.map((a: { valid: boolean }) => a.valid)).toEqual([false, false]);
    expect((await t.api(`${orders()}/${orderId}`, { key })).body.status).toBe('requested');
    expect(await messages('attendee.registered', orderId)).toBe(0);
    expect((await mailOf(orderId)).map((m) => m.cause_kind)).toEqual(['requestReceived']);

    const approved = await approve(orderId);
    expect(approved.body).toMatchObject({ status: 'free', attendees: 2 });
    expect((await ticketsOf(orderId)).map((a: { valid: boolean }) => a.valid)).toEqual([true, true]);
    expect(await messages('attendee.registered', orderId)).toBe(2);
    expect(await messages('order.approved', orderId)).toBe(1);
    expect((await mailOf(orderId)).map((m) => m.cause_kind)).toEqual([
      'requestReceived',
      'ticketIssued',
      'ticketIssued',
    ]);
    expect(await taken(typeId)).toBe(2);
  });
});

describe('declining', () => {
  it('releases the places and the discount code uses, keeps the reason, tells the buyer kindly; approving it then is 409', async () => {
    const typeId = await approvalType({ name: 'Scholarship', price: 120, vatRate: 25, capacity: 3 });
    const code = await post(`/events/${eventId}/discount-codes`, { code: 'HALF', percent: 50, maxUses: 5 });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    const made = await post(orders(), { attendees: [person(typeId), person(typeId)], discountCode: 'half' });
    expect(made.body).toMatchObject({ status: 'requested', total: 120 });
    expect(await taken(typeId)).toBe(2);
    expect(await codeUsed(code.body.discountCodeId)).toBe(2);

    const reason = 'This year the scholarships went to first-time speakers.';
    const declined = await decline(made.body.orderId, { reason });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', declineReason: reason, attendees: 0 });
    expect(await taken(typeId)).toBe(0);
    expect(await codeUsed(code.body.discountCodeId)).toBe(0);
    const tickets = await ticketsOf(made.body.orderId);
    expect(tickets.map((a: { status: string; valid: boolean }) => [a.status, a.valid])).toEqual([
      ['cancelled', false],
      ['cancelled', false],
    ]);
    expect(await messages('order.declined', made.body.orderId)).toBe(1);
    expect(await messages('attendee.registered', made.body.orderId)).toBe(0);
    const mail = await mailOf(made.body.orderId);
    expect(mail.map((m) => m.cause_kind)).toEqual(['requestReceived', 'requestDeclined']);
    expect(mail[1]!.text_body).toContain('We are sorry');
    expect(mail[1]!.text_body).toContain(reason);
    expect(mail[1]!.text_body).toContain('nothing is owed');

    const again = expectProblem(await approve(made.body.orderId), 409, 'orderNotRequested');
    expect(again.orderStatus).toBe('declined');
    expectProblem(await decline(made.body.orderId), 409, 'orderNotRequested');
    // The places are there for the next buyer.
    expect((await post(orders(), { attendees: [person(typeId)] })).status).toBe(201);
  });

  it('decides each request once: two decisions at once, one wins and the other answers 409', async () => {
    const typeId = await approvalType({ name: 'Panel seat', price: 30, vatRate: 25, capacity: 4 });
    const made = await post(orders(), { attendees: [person(typeId)] });
    const other = await post(orders(), { attendees: [person(typeId)] });
    const both = await Promise.all([approve(made.body.orderId), approve(made.body.orderId)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const either = await Promise.all([approve(other.body.orderId), decline(other.body.orderId)]);
    expect(either.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = either.find((r) => r.status === 200)!.body.status;
    // The places follow the decision that won, once.
    expect(await taken(typeId)).toBe(won === 'declined' ? 1 : 2);
    expect(await messages('order.approved', made.body.orderId)).toBe(1);
    expect(
      (await messages('order.approved', other.body.orderId)) +
        (await messages('order.declined', other.body.orderId)),
    ).toBe(1);
  });

  it("records each decision in the workspace activity log under the key's name", async () => {
    const typeId = await approvalType({ name: 'Jury', price: 0 });
    const a = await post(orders(), { attendees: [person(typeId)] });
    const b = await post(orders(), { attendees: [person(typeId)] });
    await approve(a.body.orderId);
    await decline(b.body.orderId, { reason: 'The jury is complete.' });
    const log = await db()
      .selectFrom('workspace_activity')
      .select(['action', 'resource_type', 'resource_id', 'summary'])
      .where('resource_id', 'in', [a.body.orderId, b.body.orderId])
      .orderBy('id')
      .execute();
    expect(log.map((r) => [r.action, r.resource_id, r.summary])).toEqual([
      ['createOrder', a.body.orderId, `1 ticket(s), waiting for approval, ${a.body.reference}`],
      ['createOrder', b.body.orderId, `1 ticket(s), waiting for approval, ${b.body.reference}`],
      ['approveOrder', a.body.orderId, 'approved, now free'],
      ['declineOrder', b.body.orderId, 'declined: The jury is complete.'],
    ]);
  });

  it('answers 404 notFound for an order of no such id', async () => {
    expectProblem(await approve('0190f3a4-2222-7000-8000-000000000000'), 404, 'notFound');
  });
});

describe('over MCP', () => {
  it('approve_order and decline_order answer as REST does, refusals included', async () => {
    const typeId = await approvalType({ name: 'Mentor', price: 40, vatRate: 25 });
    const [first, second] = [
      await post(orders(), { attendees: [person(typeId)] }),
      await post(orders(), { attendees: [person(typeId)] }),
    ];
    const client = await t.mcp(key);
    try {
      const approved = await callTool(client, 'approve_order', { eventId, orderId: first!.body.orderId });
      expect(approved.isError, JSON.stringify(approved.data)).toBe(false);
      expect(approved.data).toEqual((await t.api(`${orders()}/${first!.body.orderId}`, { key })).body);
      expect(approved.data.status).toBe('transfer');
      const declined = await callTool(client, 'decline_order', {
        eventId,
        orderId: second!.body.orderId,
        reason: 'Full this year.',
      });
      expect(declined.data).toEqual((await t.api(`${orders()}/${second!.body.orderId}`, { key })).body);
      expect(declined.data).toMatchObject({ status: 'declined', declineReason: 'Full this year.' });
      const twice = await callTool(client, 'approve_order', { eventId, orderId: second!.body.orderId });
      expect(twice.isError).toBe(true);
      expect(twice.data).toMatchObject({ code: 'orderNotRequested', orderStatus: 'declined', status: 409 });
      const rest = expectProblem(await approve(second!.body.orderId), 409, 'orderNotRequested');
      expect(twice.data.detail).toBe(rest.detail);
    } finally {
      await client.close();
    }
  });
});

describe('the public form', () => {
  it('says a type requires approval and ends on a page saying the request was received, nothing to pay yet', async () => {
    const typeId = await approvalType({ name: 'Invited guest', price: 0 });
    const page = await (await t.fetch(`${t.server.origin}/e/${slug}`)).text();
    expect(page).toContain('Invited guest');
    expect(page).toContain('needs the organiser&#39;s approval: you send a request');
    const who = formPerson(0);
    const sent = await sendForm(t, slug, { [`qty.${typeId}`]: '1', ...who, action: 'register' });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/e/${slug}/orders/[0-9a-f-]{36}$`));
    const orderId = sent.location!.split('/').pop()!;
    const order = (await t.api(`${orders()}/${orderId}`, { key })).body;
    expect(order).toMatchObject({ status: 'requested', source: 'registration' });
    const end = await (await t.fetch(`${t.server.origin}${sent.location}`)).text();
    expect(end).toContain('We received your request');
    expect(end).toContain(order.reference);
    expect(end).toContain('nothing to pay yet');
    expect(end).not.toContain('How to pay');
    expect((await mailOf(orderId)).map((m) => m.cause_kind)).toEqual(['requestReceived']);
    await decline(orderId);
    expect(await (await t.fetch(`${t.server.origin}${sent.location}`)).text()).toContain(
      'Your request was declined',
    );
  });
});

describe('webhooks', () => {
  it('delivers order.approved and order.declined, signed and as their published schemas say', async () => {
    const hook = await post('/webhooks', {
      url: receiver.url('/decisions'),
      eventTypes: ['order.approved', 'order.declined'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const typeId = await approvalType({ name: 'Delegate', price: 10, vatRate: 25 });
    const a = await post(orders(), { attendees: [person(typeId)] });
    const b = await post(orders(), { attendees: [person(typeId)] });
    expect((await approve(a.body.orderId)).status).toBe(200);
    expect((await decline(b.body.orderId, { reason: 'No places for delegates.' })).status).toBe(200);

    const got = await receiver.waitFor(2, { path: '/decisions' });
    const bodies = await verifiedBodies(t, key, hook.body.secret, got);
    const approved = bodies.find((x) => x.type === 'order.approved');
    const declined = bodies.find((x) => x.type === 'order.declined');
    expect(approved.data.event.eventId).toBe(eventId);
    expect(approved.data.order).toMatchObject({ orderId: a.body.orderId, status: 'transfer', total: 10 });
    expect(declined.data.order).toMatchObject({
      orderId: b.body.orderId,
      status: 'declined',
      declineReason: 'No places for delegates.',
    });
  });
});
