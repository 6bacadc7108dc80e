// A local HTTPS stand-in for the few Stripe endpoints card payments use (Stripe cannot be reached
// from the test machines): the account and balance a key check reads, Checkout sessions (made,
// read, expired, listed), refunds, charges and events. Every object it answers is built as the
// official SDK's own type (Stripe.Checkout.Session, Stripe.Refund, Stripe.Event, ...), so a shape
// Stripe would not send fails to compile. Its certificate is signed by the run's test CA (trusted
// through NODE_EXTRA_CA_CERTS), so the real SDK talks to it over real TLS. It keeps sessions in
// memory, has a tiny checkout page (Pay / Cancel) that completes a session, and sends the signed
// events (the SDK's own generateTestHeaderString) to the webhook endpoints registered with it; it
// can be told to drop events (a lost event).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { testCa } from './receiver';

/** What a key of the stand-in stands for. */
export interface StandInKey {
  accountId: string;
  accountName: string;
  /** A restricted key that may not read the account (its balance it may). */
  noAccountRead?: boolean;
}

/** Where the stand-in sends an account's events, as a webhook endpoint in Stripe's dashboard would. */
export interface StandInEndpoint {
  url: string;
  secret: string;
  /** The fetch that reaches it (the test server's, which trusts its certificate). */
  fetch: typeof globalThis.fetch;
}

/** A request the stand-in answered: method, path and the key it came with. */
export interface StandInCall {
  method: string;
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}

export interface StripeStandIn {
  /** https://localhost:port: what TESSERA_STRIPE_API_URL names. */
  readonly origin: string;
  readonly calls: StandInCall[];
  readonly sessions: Map<string, Stripe.Checkout.Session>;
  readonly events: Stripe.Event[];
  /** A key Stripe would accept, for an account. */
  acceptKey(key: string, account: StandInKey): void;
  /** Registers a webhook endpoint for an account's events. */
  addEndpoint(accountId: string, endpoint: StandInEndpoint): void;
  /** The next `count` events are made but not sent (a lost event). */
  dropEvents(count: number): void;
  /** Events are sent again from now on (those left to drop are not dropped). */
  stopDropping(): void;
  /** The next `count` calls to a route ('POST /v1/checkout/sessions') fail as Stripe down would (500). */
  failCalls(route: string, count: number): void;
  /** A refund made in Stripe's dashboard (no metadata), whole or of `amount` in Stripe's units. */
  refundInDashboard(accountId: string, paymentIntent: string, amount?: number): Promise<Stripe.Refund>;
  /** Pays a session as the checkout page's Pay button does; answers the event made. */
  pay(sessionId: string): Promise<Stripe.CheckoutSessionCompletedEvent>;
  /** Sends an event (made by the test) signed as Stripe would, answering the receiver's reply. */
  send(accountId: string, event: Stripe.Event): Promise<Response[]>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding (a[b][0][c]=v) as the object it stands for. */
export function formObject(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let at: Record<string, unknown> = root;
    for (const part of path.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[path.at(-1)!] = value;
  }
  return root;
}

/** Objects whose keys are 0, 1, 2… as arrays (line_items[0], types[0]). */
function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arraysOf(v)] as const);
  const isList = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return isList ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

function account(key: StandInKey): Stripe.Account {
  return {
    id: key.accountId,
    object: 'account',
    business_profile: {
      mcc: null,
      minority_owned_business_designation: null,
      name: key.accountName,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    charges_enabled: true,
    details_submitted: true,
    email: null,
    payouts_enabled: true,
    settings: null,
    type: 'standard',
  };
}

export function balance(livemode: boolean): Stripe.Balance {
  return { object: 'balance', available: [{ amount: 0, currency: 'nok' }], livemode, pending: [] };
}

interface LineParams {
  quantity?: string;
  price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } };
}

/** A Checkout session as Stripe answers it on creation, from the parameters the SDK sent. */
function newSession(
  origin: string,
  params: Record<string, unknown>,
  livemode: boolean,
): Stripe.Checkout.Session {
  const lines = (params.line_items ?? []) as LineParams[];
  const total = lines.reduce(
    (sum, line) => sum + Number(line.quantity ?? 1) * Number(line.price_data?.unit_amount ?? 0),
    0,
  );
  const sessionId = id('cs_test');
  const created = nowSeconds();
  return {
    id: sessionId,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: (params.cancel_url as string | undefined) ?? null,
    client_reference_id: (params.client_reference_id as string | undefined) ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: lines[0]?.price_data?.currency ?? null,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: (params.customer_email as string | undefined) ?? null,
    discounts: [],
    expires_at: Number(params.expires_at ?? created + 86_400),
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode,
    locale: (params.locale as Stripe.Checkout.Session.Locale | undefined) ?? null,
    managed_payments: null,
    metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    mode: 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: (params.success_url as string | undefined) ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${origin}/checkout/${sessionId}`,
    wallet_options: null,
  };
}

function refundOf(params: Record<string, unknown>, charge: Stripe.Charge): Stripe.Refund {
  return {
    id: id('re'),
    object: 'refund',
    amount: params.amount === undefined ? charge.amount - charge.amount_refunded : Number(params.amount),
    application: null,
    balance_transaction: null,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    customer: null,
    customer_account: null,
    metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    payment_intent: typeof charge.payment_intent === 'string' ? charge.payment_intent : null,
    payment_method: null,
    reason: null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

function chargeOf(session: Stripe.Checkout.Session, paymentIntent: string): Stripe.Charge {
  return {
    id: id('ch'),
    object: 'charge',
    amount: session.amount_total ?? 0,
    amount_captured: session.amount_total ?? 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: null,
    captured: true,
    created: nowSeconds(),
    currency: session.currency ?? 'nok',
    customer: null,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: null,
    livemode: session.livemode,
    metadata: {},
    on_behalf_of: null,
    outcome: null,
    paid: true,
    payment_intent: paymentIntent,
    payment_method: null,
    payment_method_details: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

/** An event as Stripe sends it, of the SDK's type for its type. */
export function eventOf<E extends Stripe.Event>(
  type: E['type'],
  object: E['data']['object'],
  livemode: boolean,
): E {
  const event = {
    id: id('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    data: { object },
    livemode,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } satisfies Stripe.EventBase & { type: E['type']; data: { object: E['data']['object'] } };
  return event as E;
}

/** Stripe's error body: the SDK raises the error class of the status (401 authentication, 403 permission...). */
function stripeError(res: ServerResponse, status: number, message: string, type = 'invalid_request_error') {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { type, message } }));
}

function send(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function checkoutPage(session: Stripe.Checkout.Session): string {
  const amount = `${session.amount_total} ${session.currency?.toUpperCase()}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stand-in checkout</title></head>
<body><main><h1>Pay ${amount}</h1><p>Stripe stand-in for tests: session ${session.id}, ${session.status}.</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay ${amount}</button></form>
<form method="post" action="/checkout/${session.id}/cancel"><button type="submit">Cancel and go back</button></form>
</main></body></html>`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const ca = testCa();
  const keys = new Map<string, StandInKey>();
  const endpoints = new Map<string, StandInEndpoint[]>();
  const sessions = new Map<string, Stripe.Checkout.Session>();
  const sessionAccount = new Map<string, string>();
  const charges = new Map<string, Stripe.Charge>();
  const refunds = new Map<string, Stripe.Refund>();
  const events: Stripe.Event[] = [];
  const eventAccount = new Map<string, string>();
  const calls: StandInCall[] = [];
  let dropping = 0;
  let origin = '';
  const failing = new Map<string, number>();
  // Stripe answers a request sent again with the same Idempotency-Key as it answered the first.
  const idempotent = new Map<string, unknown>();

  const deliver = async (accountId: string, event: Stripe.Event): Promise<Response[]> => {
    const payload = JSON.stringify(event);
    const answers: Response[] = [];
    for (const endpoint of endpoints.get(accountId) ?? []) {
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint.secret });
      answers.push(
        await endpoint.fetch(endpoint.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
          body: payload,
        }),
      );
    }
    return answers;
  };
  const emit = async (accountId: string, event: Stripe.Event) => {
    events.push(event);
    eventAccount.set(event.id, accountId);
    if (dropping > 0) {
      dropping -= 1;
      return;
    }
    await deliver(accountId, event);
  };
  const pay = async (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (session?.status !== 'open') throw new Error(`Session ${sessionId} is not open.`);
    const paymentIntent = id('pi');
    const charge = chargeOf(session, paymentIntent);
    charges.set(charge.id, charge);
    const paid: Stripe.Checkout.Session = {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      payment_intent: paymentIntent,
      customer_details: {
        address: null,
        business_name: null,
        email: session.customer_email,
        individual_name: null,
        name: null,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      },
    };
    sessions.set(sessionId, paid);
    const event = eventOf<Stripe.CheckoutSessionCompletedEvent>(
      'checkout.session.completed',
      paid,
      paid.livemode,
    );
    await emit(sessionAccount.get(sessionId)!, event);
    return event;
  };

  /** A refund of a payment, as the API or the dashboard makes it: refund.created, then charge.refunded. */
  const makeRefund = async (accountId: string, params: Record<string, unknown>) => {
    const charge = [...charges.values()].find((c) => c.payment_intent === params.payment_intent);
    if (!charge) return null;
    const refund = refundOf(params, charge);
    refunds.set(refund.id, refund);
    const refunded = {
      ...charge,
      amount_refunded: charge.amount_refunded + refund.amount,
      refunded: charge.amount_refunded + refund.amount >= charge.amount,
    };
    charges.set(charge.id, refunded);
    await emit(accountId, eventOf<Stripe.RefundCreatedEvent>('refund.created', refund, charge.livemode));
    await emit(accountId, eventOf<Stripe.ChargeRefundedEvent>('charge.refunded', refunded, charge.livemode));
    return refund;
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL, text: string) => {
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const body = arraysOf(
      req.method === 'GET' ? formObject(url.search.slice(1)) : formObject(text),
    ) as Record<string, unknown>;
    calls.push({ method: req.method!, path: url.pathname, key, body });
    const holder = key ? keys.get(key) : undefined;
    if (!key || !holder)
      return stripeError(
        res,
        401,
        `Invalid API Key provided: ${key ? `${key.slice(0, 8)}****${key.slice(-4)}` : ''}`,
      );
    const livemode = key.includes('_live_');
    const route = `${req.method} ${url.pathname.replace(/\/(cs|re|ch|evt)_[\w]+/g, '/$1_:id')}`;
    const failures = failing.get(route) ?? 0;
    if (failures > 0) {
      failing.set(route, failures - 1);
      return stripeError(res, 500, 'Stripe stand-in: this call fails as told.', 'api_error');
    }
    const idempotencyKey = req.headers['idempotency-key'];
    const replay =
      typeof idempotencyKey === 'string' ? idempotent.get(`${key}/${idempotencyKey}`) : undefined;
    if (replay !== undefined) return send(res, replay);
    const once = (answer: unknown) => {
      if (typeof idempotencyKey === 'string') idempotent.set(`${key}/${idempotencyKey}`, answer);
      return send(res, answer);
    };
    const objectId = /\/((?:cs|re|ch|evt)_[\w]+)/.exec(url.pathname)?.[1] ?? '';
    switch (route) {
      case 'GET /v1/account':
        if (holder.noAccountRead)
          return stripeError(
            res,
            403,
            'The provided key does not have the required permissions.',
            'invalid_request_error',
          );
        return send(res, account(holder));
      case 'GET /v1/balance':
        return send(res, balance(livemode));
      case 'POST /v1/checkout/sessions': {
        const session = newSession(origin, body, livemode);
        sessions.set(session.id, session);
        sessionAccount.set(session.id, holder.accountId);
        return once(session);
      }
      case 'GET /v1/checkout/sessions/cs_:id': {
        const session = sessions.get(objectId);
        return session
          ? send(res, session)
          : stripeError(res, 404, `No such checkout.session: '${objectId}'`);
      }
      case 'POST /v1/checkout/sessions/cs_:id/expire': {
        const session = sessions.get(objectId);
        if (session?.status !== 'open')
          return stripeError(res, 400, `Only open sessions can be expired: '${objectId}'`);
        const expired: Stripe.Checkout.Session = { ...session, status: 'expired' };
        sessions.set(objectId, expired);
        await emit(
          holder.accountId,
          eventOf<Stripe.CheckoutSessionExpiredEvent>('checkout.session.expired', expired, livemode),
        );
        return send(res, expired);
      }
      case 'POST /v1/refunds': {
        const refund = await makeRefund(holder.accountId, body);
        if (!refund) return stripeError(res, 404, `No such payment_intent: '${String(body.payment_intent)}'`);
        return once(refund);
      }
      case 'GET /v1/refunds/re_:id': {
        const refund = refunds.get(objectId);
        return refund ? send(res, refund) : stripeError(res, 404, `No such refund: '${objectId}'`);
      }
      case 'GET /v1/charges/ch_:id': {
        const charge = charges.get(objectId);
        return charge ? send(res, charge) : stripeError(res, 404, `No such charge: '${objectId}'`);
      }
      case 'GET /v1/events': {
        const created = body.created as { gte?: string } | undefined;
        const types = (body.types as string[] | undefined) ?? null;
        const data = events
          .filter((e) => eventAccount.get(e.id) === holder.accountId)
          .filter((e) => created?.gte === undefined || e.created >= Number(created.gte))
          .filter((e) => types === null || types.includes(e.type))
          .reverse();
        const list: Stripe.ApiList<Stripe.Event> = {
          object: 'list',
          data,
          has_more: false,
          url: '/v1/events',
        };
        return send(res, list);
      }
      default:
        return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    }
  };

  const page = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const [, , sessionId, action] = url.pathname.split('/');
    const session = sessions.get(sessionId ?? '');
    if (!session) return res.writeHead(404).end('No such session');
    if (req.method === 'GET')
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(session));
    if (action === 'pay') {
      await pay(session.id);
      // Stripe puts the session's id where the success address asks for it.
      const back = (session.success_url ?? '/').replace('{CHECKOUT_SESSION_ID}', session.id);
      return res.writeHead(303, { location: back }).end();
    }
    return res.writeHead(303, { location: session.cancel_url ?? '/' }).end();
  };

  const server = createServer(
    { cert: readFileSync(ca.receiverCert), key: readFileSync(ca.receiverKey) },
    (req, res) => {
      void (async () => {
        const text = await bodyOf(req);
        const url = new URL(req.url ?? '/', origin);
        if (url.pathname.startsWith('/v1/')) await api(req, res, url, text);
        else if (url.pathname.startsWith('/checkout/')) await page(req, res, url);
        else res.writeHead(404).end();
      })().catch((error: unknown) => {
        if (!res.headersSent) stripeError(res, 500, String(error), 'api_error');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    calls,
    sessions,
    events,
    acceptKey: (key, holder) => void keys.set(key, holder),
    addEndpoint: (accountId, endpoint) =>
      void endpoints.set(accountId, [...(endpoints.get(accountId) ?? []), endpoint]),
    dropEvents: (count) => {
      dropping += count;
    },
    refundInDashboard: async (accountId, paymentIntent, amount) => {
      const params = {
        payment_intent: paymentIntent,
        ...(amount === undefined ? {} : { amount: String(amount) }),
      };
      const refund = await makeRefund(accountId, params);
      if (!refund) throw new Error(`No charge of ${paymentIntent}.`);
      return refund;
    },
    stopDropping: () => {
      dropping = 0;
    },
    failCalls: (route, count) => void failing.set(route, count),
    pay,
    send: (accountId, event) => deliver(accountId, event),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
