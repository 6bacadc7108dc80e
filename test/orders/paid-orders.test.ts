// Paid orders, invoices and credit notes run live over HTTPS (issue 26, item 2): invoicing set per
// event (If-Match, every bad field named), an order marked paid through the API (order.paid and
// attendee.registered in the outbox, the invoice issued in the event's series with its VAT in a
// second currency, the reference kept and erased but shown nowhere), refused when it is not
// awaiting payment (409 naming its status); refunds whole or by ticket (places back, credit notes
// correcting the invoice, refunded once nothing is left); a cancelled ticket of an invoiced order
// credited too; the CLI's path issuing invoices the same way; scopes, modules, demonstration,
// idempotent replays and strict bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../core/admin/mark-order-paid';
import { operatorContext } from '../../core/admin/operator';
import { eventBody, expectProblem } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let eventId: string;
let typeId: string;

const db = () => t.server.services.db;

async function newEvent(body: Record<string, unknown> = {}) {
  const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency: 'EUR', ...body }) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.eventId as string;
}

const invoicing = (id = eventId) => `/events/${id}/invoicing`;
const markPaid = (orderId: string, body: Record<string, unknown>, k = key, headers = {}) =>
  t.api(`/events/${eventId}/orders/${orderId}/mark-paid`, { key: k, method: 'POST', body, headers });
const refund = (orderId: string, body: Record<string, unknown> = {}, k = key, headers = {}) =>
  t.api(`/events/${eventId}/orders/${orderId}/refund`, { key: k, method: 'POST', body, headers });
const documents = async (id = eventId) =>
  (await t.api(`/events/${id}/invoices?limit=100`, { key })).body.data;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Paid orders', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  eventId = await newEvent();
  // 121.00 EUR, of which 21 % VAT.
  typeId = await pricedTicketType(db(), eventId, 12_100, 21);
});
afterAll(async () => t?.close());

describe('invoicing settings', () => {
  it('start switched off, with the workspace as seller', async () => {
    const res = await t.api(invoicing(), { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      eventId,
      enabled: false,
      sellerName: 'Paid orders',
      sellerAddress: null,
      sellerVatNumber: null,
      sellerRegistration: null,
      prefix: 'INV-',
      footer: null,
      vatCurrency: null,
      vatExchangeRate: null,
      updatedUtc: null,
    });
  });

  it('change with If-Match (412 when stale), naming every bad field and refusing unknown ones', async () => {
    const current = await t.api(invoicing(), { key });
    const bad = await t.api(invoicing(), {
      key,
      method: 'PATCH',
      body: { vatCurrency: 'XYZ', sellerName: '', prefix: 'A B' },
    });
    expect(
      expectProblem(bad, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['prefix', 'sellerName']);
    const rules = await t.api(invoicing(), { key, method: 'PATCH', body: { vatCurrency: 'XYZ' } });
    expect(
      expectProblem(rules, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['vatCurrency', 'vatExchangeRate']);
    const same = await t.api(invoicing(), {
      key,
      method: 'PATCH',
      body: { vatCurrency: 'EUR', vatExchangeRate: 1 },
    });
    expect(expectProblem(same, 400, 'invalidRequest').errors[0].field).toBe('vatCurrency');
    const unknown = await t.api(invoicing(), { key, method: 'PATCH', body: { sellerIban: 'NO93' } });
    expect(expectProblem(unknown, 400, 'invalidRequest').errors[0].field).toBe('sellerIban');

    const set = await t.api(invoicing(), {
      key,
      method: 'PATCH',
      headers: { 'if-match': current.headers.get('etag')! },
      body: {
        enabled: true,
        sellerName: 'Nordic Events AS',
        sellerAddress: 'Storgata 1, 0155 Oslo',
        sellerVatNumber: 'NO 912 345 678 MVA',
        sellerRegistration: '912 345 678',
        prefix: 'NS-2027-',
        footer: 'Paid with thanks.',
        vatCurrency: 'NOK',
        vatExchangeRate: 11.5,
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.headers.get('etag')).toMatch(/"/);
    expect(set.body).toMatchObject({
      enabled: true,
      prefix: 'NS-2027-',
      vatCurrency: 'NOK',
      vatExchangeRate: 11.5,
    });
    const stale = await t.api(invoicing(), {
      key,
      method: 'PATCH',
      headers: { 'if-match': current.headers.get('etag')! },
      body: { footer: null },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    expect((await t.api(invoicing(), { key })).body).toEqual(set.body);
  });
});

describe('mark paid', () => {
  it('makes the order paid, sends order.paid and attendee.registered, and issues the numbered invoice', async () => {
    const { orderId, attendeeIds } = await pendingOrder(db(), eventId, typeId, 2);
    const before = (await outbox(t, workspaceId)).length;
    const res = await markPaid(orderId, { method: 'transfer', provider: 'DNB', reference: 'KID 1234 Ola' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ orderId, status: 'paid', paymentProvider: 'DNB', total: 242 });
    expect(JSON.stringify(res.body)).not.toContain('KID 1234');
    const stored = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ payment_method: 'transfer', payment_reference: 'KID 1234 Ola' });

    const messages = (await outbox(t, workspaceId)).slice(before);
    expect(messages.map((m) => m.type)).toEqual(['order.paid', 'attendee.registered', 'attendee.registered']);
    expect(messages[0]!.payload.data.order).toMatchObject({ orderId, status: 'paid' });
    expect(
      messages
        .slice(1)
        .map((m) => m.payload.data.attendee.attendeeId)
        .sort(),
    ).toEqual([...attendeeIds].sort());

    const [invoice] = await documents();
    expect(invoice).toMatchObject({
      orderId,
      kind: 'invoice',
      number: 'NS-2027-0001',
      correctsId: null,
      total: 242,
      vat: 42,
      currency: 'EUR',
      vatCurrency: 'NOK',
      vatConverted: 483,
      seller: {
        enabled: true,
        sellerName: 'Nordic Events AS',
        sellerAddress: 'Storgata 1, 0155 Oslo',
        sellerVatNumber: 'NO 912 345 678 MVA',
        sellerRegistration: '912 345 678',
        prefix: 'NS-2027-',
        footer: 'Paid with thanks.',
      },
      buyer: { name: expect.stringMatching(/^Buyer /), company: 'Buyer AS', address: null },
    });
    const single = await t.api(`/events/${eventId}/invoices/${invoice.invoiceId}`, { key });
    expect(single.body.lines).toEqual([
      {
        ticketTypeId: typeId,
        addOnId: null,
        name: 'Conference pass',
        quantity: 2,
        unitPrice: 121,
        vatRate: 21,
        total: 242,
        vat: 42,
      },
    ]);
  });

  it('answers 409 orderNotAwaitingPayment naming the status, and 404 for an unknown order', async () => {
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1);
    expect((await markPaid(orderId, { method: 'card', provider: 'Stripe' })).status).toBe(200);
    const again = await markPaid(orderId, { method: 'card', provider: 'Stripe' });
    expect(expectProblem(again, 409, 'orderNotAwaitingPayment').orderStatus).toBe('paid');
    const declined = await pendingOrder(db(), eventId, typeId, 1, 'declined');
    expect(
      expectProblem(
        await markPaid(declined.orderId, { method: 'card', provider: 'x' }),
        409,
        'orderNotAwaitingPayment',
      ).orderStatus,
    ).toBe('declined');
    expectProblem(
      await markPaid('00000000-0000-4000-8000-000000000001', { method: 'card', provider: 'x' }),
      404,
      'notFound',
    );
    const bad = await markPaid(declined.orderId, { method: 'cheque', provider: '', tip: 1 });
    expect(
      expectProblem(bad, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['method', 'provider', 'tip']);
  });

  it('replays an Idempotency-Key: one payment, one invoice', async () => {
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1);
    const headers = { 'idempotency-key': `pay-${orderId}` };
    const first = await markPaid(orderId, { method: 'onAccount', provider: 'Invoice' }, key, headers);
    const again = await markPaid(orderId, { method: 'onAccount', provider: 'Invoice' }, key, headers);
    expect(first.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await documents()).filter((d: any) => d.orderId === orderId)).toHaveLength(1);
  });

  it('goes through the same path at the command line: the invoice takes the next number', async () => {
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1, 'onAccount');
    await markOrderPaid(await operatorContext(t.server.services, workspaceId), orderId, 'Bank', {
      reference: 'CLI ref',
    });
    const stored = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      status: 'paid',
      payment_method: 'onAccount',
      payment_reference: 'CLI ref',
    });
    const all = await documents();
    expect(all.map((d: any) => d.number)).toEqual(
      all.map((_: any, i: number) => `NS-2027-${String(i + 1).padStart(4, '0')}`),
    );
    expect(all.at(-1)).toMatchObject({ orderId, kind: 'invoice' });
  });

  it('issues no invoice for a total of 0 nor where invoicing is off', async () => {
    const free = await pricedTicketType(db(), eventId, 0, 0);
    // (A requested order is approved first: test/orders/approval.test.ts.)
    const { orderId } = await pendingOrder(db(), eventId, free, 1, 'pending');
    expect((await markPaid(orderId, { method: 'other', provider: 'Desk' })).status).toBe(200);
    expect((await documents()).some((d: any) => d.orderId === orderId)).toBe(false);
    const quiet = await newEvent();
    const type = await pricedTicketType(db(), quiet, 5_000, 25);
    const order = await pendingOrder(db(), quiet, type, 1);
    const paid = await t.api(`/events/${quiet}/orders/${order.orderId}/mark-paid`, {
      key,
      method: 'POST',
      body: { method: 'transfer', provider: 'DNB' },
    });
    expect(paid.body.status).toBe('paid');
    expect(await documents(quiet)).toEqual([]);
  });
});

describe('refunds and credit notes', () => {
  it('refunds named tickets, then the rest: places back, a credit note each time, refunded at the end', async () => {
    const { orderId, attendeeIds } = await pendingOrder(db(), eventId, typeId, 3);
    await markPaid(orderId, { method: 'transfer', provider: 'DNB' });
    const invoice = (await documents()).find((d: any) => d.orderId === orderId && d.kind === 'invoice');
    const taken = async () =>
      (
        await db()
          .selectFrom('ticket_types')
          .select('taken')
          .where('id', '=', typeId)
          .executeTakeFirstOrThrow()
      ).taken;
    const takenBefore = await taken();
    const before = (await outbox(t, workspaceId)).length;

    const part = await refund(orderId, { attendeeIds: [attendeeIds[0]] });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({ status: 'paid', attendees: 2 });
    expect(await taken()).toBe(takenBefore - 1);
    const credits = () =>
      documents().then((all) => all.filter((d: any) => d.correctsId === invoice.invoiceId));
    const [first] = await credits();
    expect(first).toMatchObject({ kind: 'creditNote', total: -121, vat: -21, vatCurrency: 'NOK', orderId });
    const firstLines = (await t.api(`/events/${eventId}/invoices/${first.invoiceId}`, { key })).body.lines;
    expect(firstLines).toEqual([expect.objectContaining({ quantity: -1, unitPrice: 121, total: -121 })]);

    expectProblem(await refund(orderId, { attendeeIds: [attendeeIds[0]] }), 409, 'alreadyCancelled');
    const strangers = await refund(orderId, { attendeeIds: [eventId] });
    expect(expectProblem(strangers, 400, 'invalidRequest').errors[0].field).toBe('attendeeIds.0');

    const rest = await refund(orderId);
    expect(rest.body).toMatchObject({ status: 'refunded', attendees: 0 });
    expect(await taken()).toBe(takenBefore - 3);
    const all = await credits();
    expect(all.map((d: any) => d.total)).toEqual([-121, -242]);
    const messages = (await outbox(t, workspaceId)).slice(before);
    expect(messages.map((m) => m.type)).toEqual([
      'attendee.cancelled',
      'attendee.cancelled',
      'attendee.cancelled',
    ]);
    expect(expectProblem(await refund(orderId), 409, 'orderNotPaid').orderStatus).toBe('refunded');
    // The invoice stays as it was issued.
    expect((await t.api(`/events/${eventId}/invoices/${invoice.invoiceId}`, { key })).body).toMatchObject({
      total: 363,
      number: invoice.number,
    });
  });

  it('answers 409 orderNotPaid for an order awaiting payment', async () => {
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1);
    expect(expectProblem(await refund(orderId), 409, 'orderNotPaid').orderStatus).toBe('transfer');
  });

  it('credits a cancelled ticket of a paid, invoiced order (the existing cancel)', async () => {
    const { orderId, attendeeIds } = await pendingOrder(db(), eventId, typeId, 2);
    await markPaid(orderId, { method: 'transfer', provider: 'DNB' });
    const cancel = await t.api(`/events/${eventId}/attendees/${attendeeIds[1]}/cancel`, {
      key,
      method: 'POST',
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const mine = (await documents()).filter((d: any) => d.orderId === orderId);
    expect(mine.map((d: any) => [d.kind, d.total])).toEqual([
      ['invoice', 242],
      ['creditNote', -121],
    ]);
    expect(mine[1].correctsId).toBe(mine[0].invoiceId);
  });
});

describe('the rules of the API', () => {
  it('needs orders:write and finance:write (orders:read and finance:read do not do)', async () => {
    const { key: reader } = await t.key({
      workspaceId,
      scopes: ['orders:read', 'finance:read'],
      expires: 'never',
    });
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1);
    expect(
      expectProblem(
        await markPaid(orderId, { method: 'cash', provider: 'Desk' }, reader),
        403,
        'missingScope',
      ).scope,
    ).toBe('orders:write');
    expect(expectProblem(await refund(orderId, {}, reader), 403, 'missingScope').scope).toBe('orders:write');
    const patch = await t.api(invoicing(), { key: reader, method: 'PATCH', body: { enabled: false } });
    expect(expectProblem(patch, 403, 'missingScope').scope).toBe('finance:write');
    expect((await t.api(invoicing(), { key: reader })).status).toBe(200);
  });

  it('answers 409 moduleOff where payments are switched off', async () => {
    const off = await newEvent({ modules: { payments: false } });
    const { orderId } = await pendingOrder(db(), off, await pricedTicketType(db(), off, 100, 0), 1);
    const paths = [
      [`/events/${off}/orders/${orderId}/mark-paid`, 'POST', { method: 'cash', provider: 'Desk' }],
      [`/events/${off}/orders/${orderId}/refund`, 'POST', {}],
      [`/events/${off}/invoicing`, 'PATCH', { enabled: true }],
      [`/events/${off}/invoicing`, 'GET', undefined],
    ] as const;
    for (const [path, method, body] of paths)
      expect(expectProblem(await t.api(path, { key, method, body }), 409, 'moduleOff').module).toBe(
        'payments',
      );
  });

  it('refuses the demonstration workspace (403 demoWorkspace)', async () => {
    const demo = t.server.demoKey;
    const event = (await t.api('/events', { key: demo })).body.data[0].eventId;
    const order = '00000000-0000-4000-8000-000000000002';
    for (const [path, method, body] of [
      [`/events/${event}/orders/${order}/mark-paid`, 'POST', { method: 'cash', provider: 'Desk' }],
      [`/events/${event}/orders/${order}/refund`, 'POST', {}],
      [`/events/${event}/invoicing`, 'PATCH', { enabled: true }],
    ] as const)
      expectProblem(await t.api(path, { key: demo, method, body }), 403, 'demoWorkspace');
  });
});
