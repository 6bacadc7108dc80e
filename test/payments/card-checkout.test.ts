// Card payments through Stripe Checkout (issue 52 item 1), over HTTPS and MCP, with the real Stripe
// SDK talking to the local stand-in: a card order is pending with its places held and answers the
// session's link (made after the order's transaction, once: a retry answers the same link); Stripe's
// checkout.session.completed pays it through mark-paid's path, once; a lost event loses nothing (the
// buyer's return reads the session, and the reconciliation finds it); a hold that ends unpaid
// expires the session and gives the places and the code's uses back; Stripe down when the session is
// made expires the order at once; amounts in JPY and KWD reach Stripe in its units.
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileCardPayments } from '../../core/orders';
import { expectProblem } from '../support/fixtures';
import { pricedTicketType } from '../support/pending-orders';
import { callTool, outbox, person } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { formPerson, publishedEvent, sendForm } from '../support/sign-up';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { connectedWorkspace } from '../support/stripe-workspace';

let t: TestServer;
let stripe: StripeStandIn;
let smtp: SmtpTestServer;
let workspaceId: string;
let accountId: string;
let key: string;
let eventId: string;
let slug: string;
/** 1,250.00 NOK with 25 % VAT, 50 places. */
let passId: string;
const clock = new MutableClock();

const db = () => t.server.services.db;
const order = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.api(`/events/${eventId}/orders`, { key, method: 'POST', body, headers });
const taken = async (typeId: string) =>
  (await db().selectFrom('ticket_types').select('taken').where('id', '=', typeId).executeTakeFirstOrThrow())
    .taken;
const statusOf = async (orderId: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow())
    .status;
const sessionOf = (url: string) => stripe.sessions.get(url.split('/').at(-1)!)!;
const sessionCalls = () =>
  stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions');

beforeAll(async () => {
  stripe = await startStripeStandIn();
  smtp = await startSmtpServer();
  t = await startTestServer({
    clock,
    env: {
      TESSERA_STRIPE_API_URL: stripe.origin,
      TESSERA_SMTP_URL: smtp.url,
      TESSERA_MAIL_FROM: 'tickets@tessera.test',
    },
  });
  ({ workspaceId, key, accountId } = await connectedWorkspace(t, stripe, 'Card checkout'));
  ({ eventId, slug } = await publishedEvent(t, key, { currency: 'NOK' }));
  passId = await pricedTicketType(db(), eventId, 125_000, 25);
  await db().updateTable('ticket_types').set({ capacity: 50 }).where('id', '=', passId).execute();
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
  await smtp?.close();
});

describe('a card order', () => {
  it('is pending with its places held and answers the Checkout link of a session for exactly the order', async () => {
    const before = await taken(passId);
    const made = await order({ attendees: [person(passId), person(passId)], payment: { kind: 'card' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'pending', total: 2500, vat: 500, paymentMethod: null });
    expect(made.body.checkout.paymentUrl).toMatch(new RegExp(`^${stripe.origin}/checkout/cs_test_`));
    const holdUntil = Date.parse(made.body.checkout.holdUntil);
    expect(holdUntil - clock.now().getTime()).toBeGreaterThan(29 * 60_000);
    expect(holdUntil - clock.now().getTime()).toBeLessThanOrEqual(30 * 60_000);
    expect(await taken(passId)).toBe(before + 2);
    const session = sessionOf(made.body.checkout.paymentUrl);
    expect(session).toMatchObject({
      client_reference_id: made.body.orderId,
      currency: 'nok',
      amount_total: 250_000,
      metadata: { orderId: made.body.orderId, reference: made.body.reference, eventId },
    });
    // Stripe expires a session 30 minutes at the soonest after it is made.
    expect(session.expires_at * 1000).toBeGreaterThanOrEqual(holdUntil);
    const call = sessionCalls().at(-1)!;
    expect(call.body.line_items).toEqual([
      {
        quantity: '2',
        price_data: {
          currency: 'nok',
          unit_amount: '125000',
          product_data: {
            name: 'Conference pass',
            description: expect.stringContaining('VAT 25 % included'),
          },
        },
      },
    ]);
    expect(call.body.success_url).toBe(
      `${t.server.publicOrigin}/e/${slug}/orders/${made.body.orderId}?session_id={CHECKOUT_SESSION_ID}`,
    );
    // Nothing is announced before it is paid: no attendee.registered, no transfer instructions.
    const messages = (await outbox(t, workspaceId)).filter((m) =>
      JSON.stringify(m.payload).includes(made.body.orderId),
    );
    expect(messages.map((m) => m.type)).not.toContain('attendee.registered');
  });

  it('answers the same link to a retry with the same Idempotency-Key, one session made', async () => {
    const body = { attendees: [person(passId)], payment: { kind: 'card' } };
    const headers = { 'idempotency-key': `card-${randomBytes(6).toString('hex')}` };
    const sessionsBefore = sessionCalls().length;
    const first = await order(body, headers);
    const again = await order(body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.checkout).toEqual(first.body.checkout);
    expect(sessionCalls().length).toBe(sessionsBefore + 1);
  });

  it('takes a hold of its own length within 30 to 1440 minutes, and refuses one outside with 400', async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card', holdMinutes: 120 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(Date.parse(made.body.checkout.holdUntil) - clock.now().getTime()).toBeGreaterThan(119 * 60_000);
    const refused = await order({ attendees: [person(passId)], payment: { kind: 'card', holdMinutes: 10 } });
    expectProblem(refused, 400, 'invalidRequest');
  });

  it('is the same through the create_order tool', async () => {
    const client = await t.mcp(key);
    try {
      const { isError, data } = await callTool(client, 'create_order', {
        eventId,
        attendees: [person(passId)],
        payment: { kind: 'card' },
      });
      expect(isError, JSON.stringify(data)).toBe(false);
      expect(data.status).toBe('pending');
      expect(data.checkout.paymentUrl).toMatch(/\/checkout\/cs_test_/);
    } finally {
      await client.close();
    }
  });

  it('is refused with 409 stripeNotConnected in a workspace not connected, nothing written', async () => {
    const other = await t.workspace('No Stripe', false);
    const { key: otherKey } = await t.key({
      workspaceId: other.workspaceId,
      preset: 'everything',
      expires: 'never',
    });
    const event = await publishedEvent(t, otherKey, { currency: 'NOK' });
    const typeId = await pricedTicketType(db(), event.eventId, 10_000, 25);
    const refused = await t.api(`/events/${event.eventId}/orders`, {
      key: otherKey,
      method: 'POST',
      body: { attendees: [person(typeId)], payment: { kind: 'card' } },
    });
    expectProblem(refused, 409, 'stripeNotConnected');
    expect(await taken(typeId)).toBe(0);
  });
});

describe('completing a card order', () => {
  it("is paid once on Stripe's checkout.session.completed: order.paid, tickets valid, the invoice's path", async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    const session = sessionOf(made.body.checkout.paymentUrl);
    const event = await stripe.pay(session.id);
    expect(await statusOf(made.body.orderId)).toBe('paid');
    const paid = await t.api(`/events/${eventId}/orders/${made.body.orderId}`, { key });
    expect(paid.body).toMatchObject({ status: 'paid', paymentMethod: 'card', paymentProvider: 'Stripe' });
    const kinds = (await outbox(t, workspaceId))
      .filter((m) => JSON.stringify(m.payload).includes(made.body.orderId))
      .map((m) => m.type);
    expect(kinds.filter((k) => k === 'order.paid')).toHaveLength(1);
    expect(kinds).toContain('attendee.registered');
    const stored = await db()
      .selectFrom('card_checkouts')
      .select('payment_intent_id')
      .where('order_id', '=', made.body.orderId)
      .executeTakeFirstOrThrow();
    expect(stored.payment_intent_id).toMatch(/^pi_/);
    // Stripe sends it again: taken once, answered 200.
    const [again] = await stripe.send(
      (await db().selectFrom('stripe_connections').select('account_id').executeTakeFirstOrThrow())
        .account_id!,
      event,
    );
    expect(again!.status).toBe(200);
    expect(((await again!.json()) as { outcome: string }).outcome).toBe('duplicate');
    expect(
      (await outbox(t, workspaceId)).filter(
        (m) => m.type === 'order.paid' && JSON.stringify(m.payload).includes(made.body.orderId),
      ),
    ).toHaveLength(1);
  });

  it("is paid when the buyer comes back from Checkout though Stripe's event was lost", async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    const session = sessionOf(made.body.checkout.paymentUrl);
    stripe.dropEvents(1);
    await stripe.pay(session.id);
    expect(await statusOf(made.body.orderId)).toBe('pending');
    const page = await t.fetch(
      `${t.server.origin}/e/${slug}/orders/${made.body.orderId}?session_id=${session.id}`,
    );
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(`Order ${made.body.reference} is paid`);
    expect(text).toMatch(/\/t\/[A-Z2-7]{26}/);
    expect(await statusOf(made.body.orderId)).toBe('paid');
  });

  it('is paid by the reconciliation when both the event and the return were lost', async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    stripe.dropEvents(1);
    await stripe.pay(sessionOf(made.body.checkout.paymentUrl).id);
    expect(await statusOf(made.body.orderId)).toBe('pending');
    const reconciled = await reconcileCardPayments(t.server.services);
    expect(reconciled.paid).toBeGreaterThanOrEqual(1);
    expect(await statusOf(made.body.orderId)).toBe('paid');
    expect((await reconcileCardPayments(t.server.services)).paid).toBe(0);
  });

  it('shows a buyer who went back from Checkout that the places are held, with the link to pay', async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    const page = await t.fetch(`${t.server.origin}/e/${slug}/orders/${made.body.orderId}?checkout=cancelled`);
    const text = await page.text();
    expect(text).toContain('Your payment was not completed');
    expect(text).toContain(made.body.checkout.paymentUrl);
  });
});

describe('a hold that ends unpaid', () => {
  it('expires the session and the order, and gives its places and its discount code uses back', async () => {
    const code = await t.api(`/events/${eventId}/discount-codes`, {
      key,
      method: 'POST',
      body: { code: `CARD${randomBytes(3).toString('hex')}`, percent: 10, maxUses: 5 },
    });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    const before = await taken(passId);
    const made = await order({
      attendees: [person(passId), person(passId)],
      discountCode: code.body.code,
      payment: { kind: 'card' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(await taken(passId)).toBe(before + 2);
    const used = async () =>
      (
        await db()
          .selectFrom('discount_codes')
          .select('used')
          .where('id', '=', code.body.discountCodeId)
          .executeTakeFirstOrThrow()
      ).used;
    expect(await used()).toBe(2);
    // Not yet: the hold runs.
    await reconcileCardPayments(t.server.services);
    expect(await statusOf(made.body.orderId)).toBe('pending');
    // Stripe's checkout.session.expired events are lost: the reconciliation ends the holds itself.
    const held = await db()
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    stripe.dropEvents(Number(held.n));
    clock.advance(31 * 60_000);
    try {
      const reconciled = await reconcileCardPayments(t.server.services);
      expect(reconciled.expired).toBeGreaterThanOrEqual(1);
    } finally {
      clock.advance(-31 * 60_000);
      stripe.stopDropping();
    }
    expect(await statusOf(made.body.orderId)).toBe('expired');
    expect(sessionOf(made.body.checkout.paymentUrl).status).toBe('expired');
    expect(await used()).toBe(0);
    // Every other card order of this file expired with it: the places are all back.
    expect(await taken(passId)).toBeLessThanOrEqual(before);
    const page = await t.fetch(`${t.server.origin}/e/${slug}/orders/${made.body.orderId}`);
    expect(await page.text()).toContain('This order has expired');
  });

  it('expires at once, its places back, when Stripe cannot make the session: 502 stripeUnavailable', async () => {
    const before = await taken(passId);
    // The SDK tries three times.
    stripe.failCalls('POST /v1/checkout/sessions', 3);
    const refused = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    expectProblem(refused, 502, 'stripeUnavailable');
    expect(await taken(passId)).toBe(before);
    const expired = await db()
      .selectFrom('orders')
      .innerJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
      .select('orders.status')
      .where('orders.event_id', '=', eventId)
      .orderBy('orders.created_utc', 'desc')
      .executeTakeFirstOrThrow();
    expect(expired.status).toBe('expired');
  });
});

describe('the public form of an event taking card and transfer', () => {
  let form: { eventId: string; slug: string };
  let typeId: string;
  const send = (payment?: string) =>
    sendForm(t, form.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      ...(payment ? { payment } : {}),
      action: 'register',
    });

  beforeAll(async () => {
    form = await publishedEvent(t, key, { currency: 'NOK' });
    typeId = await pricedTicketType(db(), form.eventId, 50_000, 25);
    const both = await t.api(`/events/${form.eventId}`, {
      key,
      method: 'PATCH',
      body: { paymentMethods: 'both' },
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
  });

  it('asks how to pay, card first, and sends a card buyer to Checkout with the places held', async () => {
    const page = await (await t.fetch(`${t.server.origin}/e/${form.slug}`)).text();
    expect(page).toMatch(/<input type="radio" name="payment" value="card" checked>/);
    expect(page).toContain('value="transfer"');
    const sent = await send();
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^${stripe.origin}/checkout/cs_test_`));
    expect(await taken(typeId)).toBe(1);
  });

  it("takes a transfer where the buyer chose it: the order's page says how to pay", async () => {
    const sent = await send('transfer');
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/e/${form.slug}/orders/`));
    const orderId = sent.location!.split('/').at(-1)!;
    expect(await statusOf(orderId)).toBe('transfer');
  });

  it('says card payment is unavailable when Stripe is down, nothing held or charged', async () => {
    const before = await taken(typeId);
    stripe.failCalls('POST /v1/checkout/sessions', 3);
    const sent = await send();
    expect(sent.status).toBe(503);
    expect(sent.text).toContain('Card payment is not available right now');
    expect(await taken(typeId)).toBe(before);
  });

  it('offers no card once the workspace is disconnected: the order awaits a transfer', async () => {
    const other = await connectedWorkspace(t, stripe, 'Disconnects');
    const event = await publishedEvent(t, other.key, { currency: 'NOK' });
    const otherType = await pricedTicketType(db(), event.eventId, 50_000, 25);
    const cardOnly = await t.api(`/events/${event.eventId}`, {
      key: other.key,
      method: 'PATCH',
      body: { paymentMethods: 'card' },
    });
    expect(cardOnly.status).toBe(200);
    const sendOther = () =>
      sendForm(t, event.slug, { [`qty.${otherType}`]: '1', ...formPerson(0), action: 'register' });
    expect((await sendOther()).location).toMatch(new RegExp(`^${stripe.origin}/checkout/`));
    expect((await t.api('/payments/stripe', { key: other.key, method: 'DELETE' })).status).toBe(204);
    const page = await (await t.fetch(`${t.server.origin}/e/${event.slug}`)).text();
    expect(page).not.toContain('name="payment"');
    const sent = await sendOther();
    expect(sent.location).toMatch(new RegExp(`^/e/${event.slug}/orders/`));
    expect(await statusOf(sent.location!.split('/').at(-1)!)).toBe('transfer');
  });
});

describe('a card order needing approval', () => {
  it('waits as requested, then on approval asks for the card payment: the e-mailed page makes the session', async () => {
    const type = await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Student', price: 400, vatRate: 25, requiresApproval: true },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    const made = await order({ attendees: [person(type.body.ticketTypeId)], payment: { kind: 'card' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.status).toBe('requested');
    expect(made.body.checkout).toBeUndefined();
    const approved = await t.api(`/events/${eventId}/orders/${made.body.orderId}/approve`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe('pending');
    const page = `/e/${slug}/orders/${made.body.orderId}`;
    const mail = await db()
      .selectFrom('mail_messages')
      .select(['cause_kind', 'text_body'])
      .where('order_id', '=', made.body.orderId)
      .where('cause_kind', '=', 'transferInstructions')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('waiting for your payment by card');
    expect(mail.text_body).toContain(page);
    const text = await (await t.fetch(`${t.server.origin}${page}`)).text();
    const link = new RegExp(`${stripe.origin}/checkout/(cs_test_\\w+)`).exec(text);
    expect(link, text).not.toBeNull();
    await stripe.pay(link![1]!);
    expect(await statusOf(made.body.orderId)).toBe('paid');
  });
});

describe('refunding a card order', () => {
  const refunds = () => stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds');

  it('refunds some tickets through Stripe first, then records it: their price in Stripe units, once per retry', async () => {
    const made = await order({ attendees: [person(passId), person(passId)], payment: { kind: 'card' } });
    await stripe.pay(sessionOf(made.body.checkout.paymentUrl).id);
    expect(await statusOf(made.body.orderId)).toBe('paid');
    const [first] = await db()
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', made.body.orderId)
      .orderBy('id')
      .execute();
    const before = refunds().length;
    const headers = { 'idempotency-key': `refund-${randomBytes(6).toString('hex')}` };
    const body = { attendeeIds: [first!.id] };
    const path = `/events/${eventId}/orders/${made.body.orderId}/refund`;
    const refunded = await t.api(path, { key, method: 'POST', body, headers });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'paid', refunded: 1250 });
    expect(refunds().length).toBe(before + 1);
    const call = refunds().at(-1)!;
    const { payment_intent_id } = await db()
      .selectFrom('card_checkouts')
      .select('payment_intent_id')
      .where('order_id', '=', made.body.orderId)
      .executeTakeFirstOrThrow();
    expect(call.body).toMatchObject({ payment_intent: payment_intent_id, amount: '125000' });
    // Sent again: the kept answer, no second refund in Stripe.
    const again = await t.api(path, { key, method: 'POST', body, headers });
    expect(again.status).toBe(200);
    expect(refunds().length).toBe(before + 1);
    // The rest of the order: the whole remaining amount, the order refunded.
    const rest = await t.api(path, { key, method: 'POST', body: {} });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.status).toBe('refunded');
    expect(refunds().at(-1)!.body).toMatchObject({ amount: '125000' });
  });

  it("reflects a part refund made in Stripe's dashboard: counted as refunded, the tickets still valid", async () => {
    const made = await order({ attendees: [person(passId), person(passId)], payment: { kind: 'card' } });
    await stripe.pay(sessionOf(made.body.checkout.paymentUrl).id);
    const { payment_intent_id } = await db()
      .selectFrom('card_checkouts')
      .select('payment_intent_id')
      .where('order_id', '=', made.body.orderId)
      .executeTakeFirstOrThrow();
    await stripe.refundInDashboard(accountId, payment_intent_id!, 50_000);
    const part = await t.api(`/events/${eventId}/orders/${made.body.orderId}`, { key });
    expect(part.body).toMatchObject({ status: 'paid', refunded: 500, attendees: 2 });
    // Then the rest, in the dashboard too: the order refunded, its tickets cancelled, a credit note.
    await stripe.refundInDashboard(accountId, payment_intent_id!);
    const whole = await t.api(`/events/${eventId}/orders/${made.body.orderId}`, { key });
    expect(whole.body).toMatchObject({ status: 'refunded', refunded: 2500, attendees: 0 });
    const cancelled = (await outbox(t, workspaceId)).filter(
      (m) => m.type === 'attendee.cancelled' && JSON.stringify(m.payload).includes(made.body.orderId),
    );
    expect(cancelled).toHaveLength(2);
  });

  it('records nothing when Stripe cannot refund: 502 stripeUnavailable, the tickets still valid', async () => {
    const made = await order({ attendees: [person(passId)], payment: { kind: 'card' } });
    await stripe.pay(sessionOf(made.body.checkout.paymentUrl).id);
    stripe.failCalls('POST /v1/refunds', 3);
    const refused = await t.api(`/events/${eventId}/orders/${made.body.orderId}/refund`, {
      key,
      method: 'POST',
      body: {},
    });
    expectProblem(refused, 502, 'stripeUnavailable');
    expect(await statusOf(made.body.orderId)).toBe('paid');
    const active = await db()
      .selectFrom('attendees')
      .select('status')
      .where('order_id', '=', made.body.orderId)
      .execute();
    expect(active.map((a) => a.status)).toEqual(['active']);
  });
});

describe('amounts in Stripe units', () => {
  it.each([
    ['JPY', 5_000, '5000'],
    ['KWD', 12_500, '12500'],
  ])('sends a %s price as Stripe counts it', async (currency, priceMinor, stripeAmount) => {
    const event = await publishedEvent(t, key, { currency });
    const typeId = await pricedTicketType(db(), event.eventId, priceMinor, 0);
    const made = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      body: { attendees: [person(typeId)], payment: { kind: 'card' } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const call = sessionCalls().at(-1)!;
    const line = (call.body.line_items as { price_data: { unit_amount: string; currency: string } }[])[0]!;
    expect(line.price_data).toMatchObject({ currency: currency.toLowerCase(), unit_amount: stripeAmount });
    const session: Stripe.Checkout.Session = sessionOf(made.body.checkout.paymentUrl);
    expect(session.amount_total).toBe(Number(stripeAmount));
  });
});
