// Every way an organiser takes an order (issue 52, item 2), over HTTPS and MCP: createOrder with a
// discount code (the prices, VAT and invoice lines with the code taken off the types it names; its
// uses counted in tickets within its limit, given back on cancellation; each refusal with its
// reason, nothing written), an order costing nothing free at once, paid elsewhere (paid at once
// through mark-paid's path: order.paid, tickets valid, the invoice) and complimentary (0 charged,
// the reason kept, counted apart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { pricedTicketType } from '../support/pending-orders';
import { callTool, outbox, person } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, sendForm } from '../support/sign-up';

let t: TestServer;
let workspaceId: string;
let key: string;
let eventId: string;
/** 121.00 EUR with 21 % VAT, and 50.00 EUR with 25 %. */
let passId: string;
let dinnerId: string;

const db = () => t.server.services.db;
const orders = () => `/events/${eventId}/orders`;
const order = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.api(orders(), { key, method: 'POST', body, headers });

async function code(body: Record<string, unknown>): Promise<string> {
  const made = await t.api(`/events/${eventId}/discount-codes`, { key, method: 'POST', body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.discountCodeId;
}

const codeUsed = async (id: string) =>
  (await db().selectFrom('discount_codes').select('used').where('id', '=', id).executeTakeFirstOrThrow())
    .used;
const taken = async (typeId: string) =>
  (await db().selectFrom('ticket_types').select('taken').where('id', '=', typeId).executeTakeFirstOrThrow())
    .taken;
const messages = async (type: string, orderId: string) =>
  (await outbox(t, workspaceId)).filter((m) => m.type === type && JSON.stringify(m.payload).includes(orderId))
    .length;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Order kinds', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency: 'EUR' }) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  eventId = made.body.eventId;
  passId = await pricedTicketType(db(), eventId, 12_100, 21);
  dinnerId = await pricedTicketType(db(), eventId, 5_000, 25);
  const invoicing = `/events/${eventId}/invoicing`;
  const current = await t.api(invoicing, { key });
  const on = await t.api(invoicing, {
    key,
    method: 'PATCH',
    headers: { 'if-match': current.headers.get('etag')! },
    body: { enabled: true, sellerName: 'Kinds AS', prefix: 'K-' },
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
});
afterAll(async () => t?.close());

describe('a discount code on an order', () => {
  it('takes its percentage off the types it names only, VAT within the new price, and counts a use per ticket', async () => {
    const id = await code({ code: 'Early25', percent: 25, ticketTypeIds: [passId] });
    const made = await order({
      attendees: [person(passId), person(passId), person(dinnerId)],
      discountCode: 'early25',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // 2 × 90.75 (121 less 25 %) + 50.00; VAT 2 × 15.75 + 10.00.
    expect(made.body).toMatchObject({
      status: 'transfer',
      total: 231.5,
      vat: 41.5,
      discount: 60.5,
      discountCodeId: id,
      paymentMethod: null,
    });
    expect(await codeUsed(id)).toBe(2);
    const sold = await db()
      .selectFrom('attendees')
      .select(['ticket_type_id', 'price_minor'])
      .where('order_id', '=', made.body.orderId)
      .execute();
    expect(sold.map((a) => [a.ticket_type_id === passId ? 'pass' : 'dinner', a.price_minor]).sort()).toEqual([
      ['dinner', 5_000],
      ['pass', 9_075],
      ['pass', 9_075],
    ]);

    // Marked paid, the invoice bills the prices as sold, the code named on the discounted line.
    const paid = await t.api(`${orders()}/${made.body.orderId}/mark-paid`, {
      key,
      method: 'POST',
      body: { method: 'transfer', provider: 'DNB' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const invoices = (await t.api(`/events/${eventId}/invoices?limit=100`, { key })).body.data;
    const invoice = invoices.find((i: { orderId: string }) => i.orderId === made.body.orderId);
    expect(invoice).toMatchObject({ total: 231.5, vat: 41.5 });
    const lines = (await t.api(`/events/${eventId}/invoices/${invoice.invoiceId}`, { key })).body.lines;
    expect(
      lines.map((l: { name: string; quantity: number; unitPrice: number }) => [
        l.name,
        l.quantity,
        l.unitPrice,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['Conference pass (Early25)', 2, 90.75],
        ['Conference pass', 1, 50],
      ]),
    );
  });

  it('takes an amount off each ticket, never below nothing; an order it makes cost nothing is free at once', async () => {
    const id = await code({ code: 'SPEAKER-FREE', amount: 500 });
    const before = await taken(passId);
    const made = await order({ attendees: [person(passId), person(dinnerId)], discountCode: 'speaker-free' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'free', total: 0, vat: 0, discount: 171 });
    expect(await codeUsed(id)).toBe(2);
    expect(await taken(passId)).toBe(before + 1);
    expect(await messages('attendee.registered', made.body.orderId)).toBe(2);
    const tickets = (await t.api(`/events/${eventId}/attendees?limit=500`, { key })).body.data.filter(
      (a: { orderId: string }) => a.orderId === made.body.orderId,
    );
    expect(tickets.map((a: { valid: boolean }) => a.valid)).toEqual([true, true]);
  });

  it('is refused, with nothing written, when unknown, off, not yet valid, expired, for other types or used up', async () => {
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const off = await code({ code: 'OFFCODE', percent: 10 });
    const switchedOff = await t.api(`/events/${eventId}/discount-codes/${off}`, {
      key,
      method: 'PATCH',
      body: { active: false },
    });
    expect(switchedOff.status, JSON.stringify(switchedOff.body)).toBe(200);
    await code({ code: 'LATER', percent: 10, validFromUtc: soon });
    await code({
      code: 'GONE',
      percent: 10,
      validFromUtc: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      validUntilUtc: past,
    });
    await code({ code: 'DINNERONLY', percent: 10, ticketTypeIds: [dinnerId] });
    const limited = await code({ code: 'TWOLEFT', percent: 10, maxUses: 2 });
    const before = await taken(passId);
    const refusals: [string, string][] = [
      ['NOSUCH', 'discountCodeUnknown'],
      ['offcode', 'discountCodeOff'],
      ['later', 'discountCodeNotYetValid'],
      ['gone', 'discountCodeExpired'],
      ['dinneronly', 'discountCodeNotApplicable'],
    ];
    for (const [letters, reason] of refusals) {
      const refused = await order({ attendees: [person(passId)], discountCode: letters });
      expect(expectProblem(refused, 400, 'registrationRefused').reason, letters).toBe(reason);
    }
    const tooMany = await order({
      attendees: [person(passId), person(passId), person(passId)],
      discountCode: 'TWOLEFT',
    });
    const problem = expectProblem(tooMany, 400, 'registrationRefused');
    expect(problem.reason).toBe('discountCodeUsedUp');
    expect(problem.detail).toContain('2 more ticket(s), not 3');
    expect(await codeUsed(limited)).toBe(0);
    expect(await taken(passId)).toBe(before);
  });

  it('never lets two orders at once use a code beyond its limit, and gives a use back with a cancelled ticket', async () => {
    const id = await code({ code: 'ONCE', amount: 10, maxUses: 1 });
    const [a, b] = await Promise.all([
      order({ attendees: [person(passId)], discountCode: 'ONCE' }),
      order({ attendees: [person(passId)], discountCode: 'ONCE' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    expect(await codeUsed(id)).toBe(1);
    const won = a.status === 201 ? a : b;
    const ticket = await db()
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', won.body.orderId)
      .executeTakeFirstOrThrow();
    const cancelled = await t.api(`/events/${eventId}/attendees/${ticket.id}/cancel`, {
      key,
      method: 'POST',
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await codeUsed(id)).toBe(0);
    expect((await order({ attendees: [person(passId)], discountCode: 'once' })).status).toBe(201);
  });
});

describe('a discount code on a free registration', () => {
  it("counts a partner's code within its limit on free tickets, through the API, MCP and the public form", async () => {
    const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency: 'EUR' }) });
    const id = made.body.eventId as string;
    const published = await t.api(`/events/${id}/status`, {
      key,
      method: 'PUT',
      body: { status: 'published' },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const seat = await pricedTicketType(db(), id, 0, 0);
    const partner = await t.api(`/events/${id}/discount-codes`, {
      key,
      method: 'POST',
      body: { code: 'ACME-TEAM', percent: 100, maxUses: 3 },
    });
    expect(partner.status, JSON.stringify(partner.body)).toBe(201);
    const register = (body: Record<string, unknown>) =>
      t.api(`/events/${id}/attendees`, { key, method: 'POST', body });
    const two = await register({ attendees: [person(seat), person(seat)], discountCode: 'acme-team' });
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(await codeUsed(partner.body.discountCodeId)).toBe(2);
    const order = await t.api(`/events/${id}/orders/${two.body.orderId}`, { key });
    expect(order.body).toMatchObject({
      status: 'free',
      total: 0,
      discountCodeId: partner.body.discountCodeId,
    });
    const tooMany = await register({ attendees: [person(seat), person(seat)], discountCode: 'ACME-TEAM' });
    expect(expectProblem(tooMany, 400, 'registrationRefused').reason).toBe('discountCodeUsedUp');
    expect(
      expectProblem(
        await register({ attendees: [person(seat)], discountCode: 'NOPE' }),
        400,
        'registrationRefused',
      ).reason,
    ).toBe('discountCodeUnknown');
    const client = await t.mcp(key);
    const tool = await callTool(client, 'register_attendees', {
      eventId: id,
      attendees: [person(seat)],
      discountCode: 'Acme-Team',
      idempotencyKey: 'free-code-0001',
    });
    expect(tool.isError, JSON.stringify(tool.data)).toBe(false);
    await client.close();
    expect(await codeUsed(partner.body.discountCodeId)).toBe(3);
    // The public form of a free event asks for the code too, and says when it is used up.
    const slug = made.body.slug as string;
    const sent = await sendForm(t, slug, {
      [`qty.${seat}`]: '1',
      ...formPerson(0),
      discountCode: 'acme-team',
      action: 'register',
    });
    expect(sent.status).toBe(422);
    expect(sent.text).toContain('has been used as often as it may be');
  });
});

describe('how an order is paid', () => {
  it('paid elsewhere is paid at once through the path of mark-paid: order.paid, valid tickets, the invoice', async () => {
    const made = await order(
      {
        attendees: [person(passId)],
        payment: { kind: 'paidElsewhere', method: 'cash', reference: 'Receipt 0042' },
      },
      { 'idempotency-key': 'elsewhere-0001' },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'paid',
      total: 121,
      paymentMethod: 'cash',
      paymentProvider: 'organiser',
      complimentaryReason: null,
    });
    expect(made.body.paidUtc).toEqual(expect.any(String));
    expect(await messages('order.paid', made.body.orderId)).toBe(1);
    expect(await messages('attendee.registered', made.body.orderId)).toBe(1);
    const invoices = (await t.api(`/events/${eventId}/invoices?limit=100`, { key })).body.data;
    const issued = invoices.filter((i: { orderId: string }) => i.orderId === made.body.orderId);
    expect(issued).toHaveLength(1);
    // The answer names the invoice it issued.
    expect(made.body.invoice).toEqual({ invoiceId: issued[0].invoiceId, number: issued[0].number });
    // The reference is kept (personal data), shown nowhere.
    expect(JSON.stringify(made.body)).not.toContain('Receipt 0042');
    const replay = await order(
      {
        attendees: [person(passId)],
        payment: { kind: 'paidElsewhere', method: 'cash', reference: 'Receipt 0042' },
      },
      { 'idempotency-key': 'elsewhere-0001' },
    );
    expect(replay.status, JSON.stringify(replay.body)).toBe(422);
  });

  it('complimentary charges nothing, keeps its reason, and takes no discount code', async () => {
    const made = await order({
      attendees: [person(passId), person(dinnerId)],
      payment: { kind: 'complimentary', reason: 'Keynote speaker' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'free',
      total: 0,
      vat: 0,
      paymentMethod: 'complimentary',
      complimentaryReason: 'Keynote speaker',
    });
    expect(await messages('attendee.registered', made.body.orderId)).toBe(2);
    const withCode = await order({
      attendees: [person(passId)],
      discountCode: 'EARLY25',
      payment: { kind: 'complimentary', reason: 'Press' },
    });
    expect(expectProblem(withCode, 400, 'invalidRequest').errors[0].field).toBe('discountCode');
    // A body that is not of the schema is refused as a whole, before anything is read.
    const wrong: [Record<string, unknown>, string, string][] = [
      [{ kind: 'complimentary' }, 'invalidRequest', 'payment.reason: Required.'],
      [
        { kind: 'complimentary', reason: '' },
        'invalidRequest',
        'payment.reason: Must be at least 1 character.',
      ],
      [{ kind: 'paidElsewhere' }, 'invalidRequest', 'payment.method: Required.'],
      [{ kind: 'paidElsewhere', method: 'barter' }, 'invalidRequest', 'payment.method: Must be one of'],
      [
        { kind: 'cheque' },
        'invalidBody',
        'payment.kind: Must be one of: transfer, card, paidElsewhere, complimentary.',
      ],
    ];
    for (const [payment, problemCode, said] of wrong)
      expect(
        expectProblem(await order({ attendees: [person(passId)], payment }), 400, problemCode).detail,
      ).toContain(said);
  });

  it('are the same through the tool create_order', async () => {
    await code({ code: 'FIVEOFF', amount: 5 });
    const client = await t.mcp(key);
    const complimentary = await callTool(client, 'create_order', {
      eventId,
      attendees: [person(passId)],
      payment: { kind: 'complimentary', reason: 'Sponsor guest' },
      idempotencyKey: 'tool-kinds-0001',
    });
    expect(complimentary.isError, JSON.stringify(complimentary.data)).toBe(false);
    expect(complimentary.data).toMatchObject({ status: 'free', complimentaryReason: 'Sponsor guest' });
    const discounted = await callTool(client, 'create_order', {
      eventId,
      attendees: [person(dinnerId)],
      discountCode: 'fiveoff',
      payment: { kind: 'paidElsewhere', method: 'card', provider: 'Desk terminal' },
      idempotencyKey: 'tool-kinds-0002',
    });
    expect(discounted.isError, JSON.stringify(discounted.data)).toBe(false);
    // 50.00 less 5.00 off each ticket, paid on the desk's card terminal.
    expect(discounted.data).toMatchObject({
      status: 'paid',
      total: 45,
      paymentMethod: 'card',
      paymentProvider: 'Desk terminal',
    });
    const refused = await callTool(client, 'create_order', {
      eventId,
      attendees: [person(passId)],
      discountCode: 'nosuch',
      idempotencyKey: 'tool-kinds-0003',
    });
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ code: 'registrationRefused', reason: 'discountCodeUnknown' });
    await client.close();
  });
});

describe('the money figures of the statistics', () => {
  it('say received, outstanding by status, refunded (also of an order still paid), net and complimentary apart', async () => {
    const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency: 'EUR' }) });
    const id = made.body.eventId as string;
    const type = await pricedTicketType(db(), id, 10_000, 25);
    const take = (body: Record<string, unknown>) =>
      t.api(`/events/${id}/orders`, { key, method: 'POST', body });
    const awaited = await take({ attendees: [person(type)] });
    const cash = await take({
      attendees: [person(type), person(type), person(type)],
      payment: { kind: 'paidElsewhere', method: 'cash' },
    });
    const whole = await take({
      attendees: [person(type)],
      payment: { kind: 'paidElsewhere', method: 'card' },
    });
    await take({
      attendees: [person(type), person(type)],
      payment: { kind: 'complimentary', reason: 'Crew family' },
    });
    for (const answer of [awaited, cash, whole]) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    // One ticket of the cash order paid back (the order stays paid), and the card order whole.
    const ticket = await db()
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', cash.body.orderId)
      .executeTakeFirstOrThrow();
    const some = await t.api(`/events/${id}/orders/${cash.body.orderId}/refund`, {
      key,
      method: 'POST',
      body: { attendeeIds: [ticket.id] },
    });
    expect(some.body).toMatchObject({ status: 'paid', refunded: 100 });
    const all = await t.api(`/events/${id}/orders/${whole.body.orderId}/refund`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(all.body).toMatchObject({ status: 'refunded', refunded: 100 });

    const stats = (await t.api(`/events/${id}/stats`, { key })).body;
    expect(stats.revenue).toBe(300);
    expect(stats.money).toEqual({
      currency: 'EUR',
      received: 400,
      outstanding: 100,
      outstandingByStatus: { pending: 0, onAccount: 0, transfer: 100, requested: 0 },
      refunded: 200,
      net: 200,
      complimentary: { orders: 1, tickets: 2 },
    });
    const client = await t.mcp(key);
    const tool = await callTool(client, 'get_event_stats', { eventId: id });
    expect(tool.data.money).toEqual(stats.money);
    await client.close();
  });
});
