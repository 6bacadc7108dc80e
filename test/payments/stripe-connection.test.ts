// A workspace connected to its Stripe account (issue 52 item 1), over HTTPS and MCP, with the real
// Stripe SDK talking to the local stand-in (test/support/stripe-stand-in.ts): the key checked with
// Stripe, test and live told apart, the secrets kept only encrypted (never in an answer, the
// activity log or the database file), re-sealed by `secrets rekey`; paymentMethods on an event;
// Stripe's events taken at the workspace's webhook address once, verified with the SDK.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rekeyAllSecrets } from '../../core/admin';
import { receiveStripeEvent, stripeClient } from '../../core/payments';
import type { Ctx } from '../../core/platform/context';
import { deriveSecrets } from '../../core/platform/secrets';
import { decryptSecret } from '../../core/webhooks/signing-secrets';
import { eventBody, expectProblem } from '../support/fixtures';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { balance, eventOf, type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let stripe: StripeStandIn;
let workspaceId: string;
let organiser: string;
let reader: string;

const secretKey = (mode: 'test' | 'live', prefix = 'sk') =>
  `${prefix}_${mode}_${randomBytes(18).toString('hex')}`;
const webhookSecret = () => `whsec_${randomBytes(24).toString('hex')}`;
const accountId = () => `acct_${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await startTestServer({ env: { TESSERA_STRIPE_API_URL: stripe.origin } });
  ({ workspaceId } = await t.workspace('Stripe connection'));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['finance:read'], expires: 'never' }));
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const connect = (body: Record<string, unknown>, key = organiser) =>
  t.api('/payments/stripe', { key, method: 'PUT', body });

/** Every place a secret could leak to: the answers given, the activity log, the stored rows and files. */
async function expectNowhere(secrets: string[], answers: unknown[]): Promise<void> {
  for (const answer of answers) for (const s of secrets) expect(JSON.stringify(answer)).not.toContain(s);
  const db = t.server.services.db;
  await t.server.services.activity.flush();
  const activity = await db
    .selectFrom('workspace_activity')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .execute();
  const rows = await db.selectFrom('stripe_connections').selectAll().execute();
  for (const s of secrets) {
    expect(JSON.stringify(activity)).not.toContain(s);
    expect(JSON.stringify(rows)).not.toContain(s);
  }
  if (onPostgres) return;
  for (const file of ['tessera.db', 'tessera.db-wal']) {
    const path = join(t.dataDir, file);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (const s of secrets) expect(bytes.indexOf(s), `${s} in ${file}`).toBe(-1);
  }
}

describe('connecting a workspace to Stripe over HTTPS', () => {
  it('answers not connected, with the webhook address to register, before any key is given', async () => {
    const res = await t.api('/payments/stripe', { key: reader });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      connected: false,
      accountId: null,
      mode: null,
      webhookSecretSet: false,
    });
    expect(res.body.webhookUrl).toBe(
      `${t.server.publicOrigin}/api/v1/payments/stripe/webhook/${workspaceId}`,
    );
    expect(res.body.webhookEvents).toEqual([
      'checkout.session.completed',
      'checkout.session.expired',
      'charge.refunded',
      'refund.created',
      'refund.updated',
    ]);
  });

  it('refuses card payments on an event with 409 stripeNotConnected before the workspace is connected', async () => {
    const event = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
    expect(event.body.paymentMethods).toBe('transfer');
    const refused = await t.api(`/events/${event.body.eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { paymentMethods: 'card' },
    });
    expectProblem(refused, 409, 'stripeNotConnected');
    expect((await t.api(`/events/${event.body.eventId}`, { key: organiser })).body.paymentMethods).toBe(
      'transfer',
    );
  });

  it('connects with a test key after Stripe accepts it: the account, test mode and the last four only, never a secret', async () => {
    const key = secretKey('test');
    const whsec = webhookSecret();
    const account = accountId();
    stripe.acceptKey(key, { accountId: account, accountName: 'Fjord Conf AS' });
    const res = await connect({ secretKey: key, webhookSecret: whsec });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      connected: true,
      accountId: account,
      accountName: 'Fjord Conf AS',
      mode: 'test',
      keyLast4: key.slice(-4),
      webhookSecretSet: true,
    });
    expect(stripe.calls.filter((c) => c.key === key).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v1/account',
    ]);
    const read = await t.api('/payments/stripe', { key: reader });
    expect(read.body).toEqual(res.body);
    await expectNowhere([key, whsec], [res.body, read.body]);
    const stored = await t.server.services.db
      .selectFrom('stripe_connections')
      .selectAll()
      .executeTakeFirstOrThrow();
    const sealing = t.server.services.secrets.webhookSecretKey;
    expect(decryptSecret(sealing, stored.secret_key_enc)).toBe(key);
    expect(decryptSecret(sealing, stored.webhook_secret_enc!)).toBe(whsec);
  });

  it('sent again the same changes nothing: no call to Stripe, no second activity entry', async () => {
    const key = secretKey('test');
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Again' });
    const whsec = webhookSecret();
    expect((await connect({ secretKey: key, webhookSecret: whsec })).status).toBe(200);
    const callsBefore = stripe.calls.length;
    const again = await connect({ secretKey: key, webhookSecret: whsec });
    expect(again.status).toBe(200);
    expect(stripe.calls.length).toBe(callsBefore);
    await t.server.services.activity.flush();
    const entries = await t.server.services.db
      .selectFrom('workspace_activity')
      .select(['action', 'summary'])
      .where('workspace_id', '=', workspaceId)
      .where('resource_type', '=', 'stripeConnection')
      .execute();
    expect(entries.filter((e) => e.summary === `test mode, key …${key.slice(-4)}`)).toHaveLength(1);
    await expectNowhere([key, whsec], [again.body]);
  });

  it('tells a live restricted key from a test key by its prefix, and takes one that may not read the account by its balance', async () => {
    const key = secretKey('live', 'rk');
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Restricted', noAccountRead: true });
    const res = await connect({ secretKey: key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ mode: 'live', accountId: null, keyLast4: key.slice(-4) });
    expect(stripe.calls.filter((c) => c.key === key).map((c) => c.path)).toEqual([
      '/v1/account',
      '/v1/balance',
    ]);
  });

  it('refuses a key Stripe refuses with 422 stripeKeyRefused, keeping the connection as it was', async () => {
    const before = (await t.api('/payments/stripe', { key: reader })).body;
    const unknown = secretKey('test');
    const res = await connect({ secretKey: unknown, webhookSecret: webhookSecret() });
    const problem = expectProblem(res, 422, 'stripeKeyRefused');
    expect(problem.detail).toContain('Invalid API Key');
    expect(problem.detail).not.toContain(unknown);
    expect((await t.api('/payments/stripe', { key: reader })).body).toEqual(before);
  });

  it('refuses keys and signing secrets of the wrong shape with 400, naming each field', async () => {
    const res = await connect({ secretKey: 'pk_test_51Habcdefghijklmnopqrstu', webhookSecret: 'secret' });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'secretKey',
      'webhookSecret',
    ]);
  });

  it('needs finance:write to connect (403 missingScope for a finance:read key)', async () => {
    const res = await connect({ secretKey: secretKey('test') }, reader);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('finance:write');
  });
});

describe('paymentMethods on an event', () => {
  it('takes card and both once the workspace is connected, and shows them on the event', async () => {
    const event = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
    for (const methods of ['card', 'both', 'transfer']) {
      const res = await t.api(`/events/${event.body.eventId}`, {
        key: organiser,
        method: 'PATCH',
        body: { paymentMethods: methods },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.paymentMethods).toBe(methods);
    }
    const wrong = await t.api(`/events/${event.body.eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { paymentMethods: 'cash' },
    });
    expectProblem(wrong, 400, 'invalidRequest');
  });
});

describe('the Stripe client', () => {
  it("makes a Checkout session of exactly the order in Stripe's units, reads it, and expires it", async () => {
    const key = secretKey('test');
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Client' });
    const client = await stripeClient(t.server.services, key);
    const made = await client.createCheckoutSession({
      orderId: '0193a0c4-0000-7000-8000-000000000001',
      reference: 'KW-1',
      workspaceId,
      eventId: '0193a0c4-0000-7000-8000-000000000002',
      currency: 'KWD',
      lines: [
        { name: 'Conference ticket', description: 'Incl. VAT', quantity: 2, unitMinor: 12_350 },
        { name: 'Dinner', quantity: 1, unitMinor: 4_000 },
      ],
      successUrl: 'https://example.org/paid',
      cancelUrl: 'https://example.org/back',
      expiresAt: new Date(Date.now() + 30 * 60_000),
    });
    expect(made).toMatchObject({
      status: 'open',
      currency: 'kwd',
      amount_total: 28_700,
      client_reference_id: '0193a0c4-0000-7000-8000-000000000001',
    });
    const sent = stripe.calls.at(-1)!;
    expect(sent.body.line_items).toMatchObject([
      {
        quantity: '2',
        price_data: { currency: 'kwd', unit_amount: '12350', product_data: { name: 'Conference ticket' } },
      },
      { quantity: '1', price_data: { unit_amount: '4000' } },
    ]);
    expect((await client.retrieveSession(made.id)).id).toBe(made.id);
    expect((await client.expireSession(made.id)).status).toBe('expired');
  });

  it('refunds part of a paid JPY session through Stripe, in whole yen', async () => {
    const key = secretKey('test');
    const account = accountId();
    stripe.acceptKey(key, { accountId: account, accountName: 'Yen' });
    const client = await stripeClient(t.server.services, key);
    const session = await client.createCheckoutSession({
      orderId: '0193a0c4-0000-7000-8000-000000000003',
      reference: 'JP-1',
      workspaceId,
      eventId: '0193a0c4-0000-7000-8000-000000000004',
      currency: 'JPY',
      lines: [{ name: 'Ticket', quantity: 3, unitMinor: 5_000 }],
      successUrl: 'https://example.org/paid',
      cancelUrl: 'https://example.org/back',
      expiresAt: new Date(Date.now() + 30 * 60_000),
    });
    expect(session.amount_total).toBe(15_000);
    await stripe.pay(session.id);
    const paid = await client.retrieveSession(session.id);
    const refund = await client.createRefund({
      paymentIntentId: String(paid.payment_intent),
      currency: 'JPY',
      amountMinor: 5_000,
      idempotencyKey: `refund-${session.id}-1`,
    });
    expect(refund).toMatchObject({ amount: 5_000, currency: 'jpy', status: 'succeeded' });
    const charge = await client.retrieveCharge(String(refund.charge));
    expect(charge.amount_refunded).toBe(5_000);
    const events = await client.listEventsSince(new Date(Date.now() - 60_000), [
      'checkout.session.completed',
      'charge.refunded',
    ]);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'charge.refunded']);
  });
});

describe("Stripe's events at the workspace's webhook address", () => {
  let account: string;
  let whsec: string;
  const url = () => `${t.server.origin}/api/v1/payments/stripe/webhook/${workspaceId}`;
  const stored = () =>
    t.server.services.db
      .selectFrom('stripe_events')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .execute();

  beforeAll(async () => {
    const key = secretKey('test');
    account = accountId();
    whsec = webhookSecret();
    stripe.acceptKey(key, { accountId: account, accountName: 'Webhooks' });
    expect((await connect({ secretKey: key, webhookSecret: whsec })).status).toBe(200);
    stripe.addEndpoint(account, { url: url(), secret: whsec, fetch: t.fetch });
  });

  it('takes a signed event once, even sent twice, and answers 200 both times', async () => {
    const event = eventOf<Stripe.BalanceAvailableEvent>('balance.available', balance(false), false);
    const [first] = await stripe.send(account, event);
    expect(first!.status).toBe(200);
    expect(await first!.json()).toEqual({
      received: true,
      eventId: event.id,
      type: 'balance.available',
      outcome: 'ignored',
    });
    const [second] = await stripe.send(account, event);
    expect(second!.status).toBe(200);
    expect(await second!.json()).toMatchObject({ outcome: 'duplicate' });
    expect((await stored()).filter((row) => row.event_id === event.id)).toMatchObject([
      { type: 'balance.available', handled: 0, livemode: 0 },
    ]);
  });

  it('refuses a bad signature with 400 stripeSignatureInvalid and records nothing', async () => {
    const event = eventOf<Stripe.BalanceAvailableEvent>('balance.available', balance(false), false);
    const payload = JSON.stringify(event);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret() });
    const res = await t.api(`//api/v1/payments/stripe/webhook/${workspaceId}`, {
      method: 'POST',
      rawBody: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': forged },
    });
    expectProblem(res, 400, 'stripeSignatureInvalid');
    const unsigned = await t.api(`//api/v1/payments/stripe/webhook/${workspaceId}`, {
      method: 'POST',
      rawBody: payload,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(unsigned, 400, 'stripeSignatureInvalid');
    expect((await stored()).some((row) => row.event_id === event.id)).toBe(false);
  });

  it('hands a handled type to its handler once, typed, inside the transaction that records it', async () => {
    const key = secretKey('test');
    stripe.acceptKey(key, { accountId: account, accountName: 'Webhooks' });
    const client = await stripeClient(t.server.services, key);
    const session = await client.createCheckoutSession({
      orderId: '0193a0c4-0000-7000-8000-000000000005',
      reference: 'NO-1',
      workspaceId,
      eventId: '0193a0c4-0000-7000-8000-000000000006',
      currency: 'NOK',
      lines: [{ name: 'Ticket', quantity: 1, unitMinor: 220_000 }],
      successUrl: 'https://example.org/paid',
      cancelUrl: 'https://example.org/back',
      expiresAt: new Date(Date.now() + 30 * 60_000),
    });
    stripe.dropEvents(1);
    const event = await stripe.pay(session.id);
    const seen: { sessionId: string; paid: string; inTransaction: boolean; actor: string }[] = [];
    const handlers = {
      'checkout.session.completed': async (ctx: Ctx, completed: Stripe.CheckoutSessionCompletedEvent) => {
        seen.push({
          sessionId: completed.data.object.id,
          paid: completed.data.object.payment_status,
          inTransaction: ctx.db.isTransaction,
          actor: ctx.actor.keyName,
        });
      },
    };
    const payload = JSON.stringify(event);
    const request = () => ({
      workspaceId,
      body: Buffer.from(payload),
      signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: whsec }),
      origin: t.server.publicOrigin,
    });
    const first = await receiveStripeEvent(t.server.services, request(), handlers);
    const again = await receiveStripeEvent(t.server.services, request(), handlers);
    expect([first.outcome, again.outcome]).toEqual(['handled', 'duplicate']);
    expect(seen).toEqual([
      { sessionId: session.id, paid: 'paid', inTransaction: true, actor: 'Stripe webhook' },
    ]);
    expect((await stored()).filter((row) => row.event_id === event.id)).toMatchObject([
      { type: 'checkout.session.completed', object_id: session.id, handled: 1 },
    ]);
  });
});

describe('the Stripe connection over MCP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await t.mcp(organiser, undefined, '?toolsets=finance');
  });
  afterAll(async () => client?.close());

  it('connects, reads and disconnects through the tools, never answering a secret', async () => {
    const key = secretKey('test');
    const whsec = webhookSecret();
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Assistant' });
    const connected = await callTool(client, 'connect_stripe', { secretKey: key, webhookSecret: whsec });
    expect(connected.isError).toBe(false);
    expect(connected.data).toMatchObject({ connected: true, mode: 'test', keyLast4: key.slice(-4) });
    const read = await callTool(client, 'get_stripe_connection', {});
    expect(read.data).toEqual(connected.data);
    const refused = await callTool(client, 'connect_stripe', { secretKey: secretKey('test') });
    expect(refused).toMatchObject({ isError: true, data: { code: 'stripeKeyRefused' } });
    const gone = await callTool(client, 'disconnect_stripe', {});
    expect(gone.data).toMatchObject({ connected: false, keyLast4: null });
    await expectNowhere([key, whsec], [connected.data, read.data, gone.data]);
  });
});

describe('disconnecting and re-keying', () => {
  it('disconnects with 204: the secrets are deleted and card is refused again', async () => {
    const key = secretKey('test');
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Leaving' });
    expect((await connect({ secretKey: key })).status).toBe(200);
    const gone = await t.api('/payments/stripe', { key: organiser, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await t.api('/payments/stripe', { key: reader })).body.connected).toBe(false);
    expect(await t.server.services.db.selectFrom('stripe_connections').selectAll().execute()).toEqual([]);
    const event = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
    const refused = await t.api(`/events/${event.body.eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { paymentMethods: 'both' },
    });
    expectProblem(refused, 409, 'stripeNotConnected');
  });

  it('re-seals the Stripe key and signing secret under the new deployment key (secrets rekey)', async () => {
    const key = secretKey('test');
    const whsec = webhookSecret();
    stripe.acceptKey(key, { accountId: accountId(), accountName: 'Rekey' });
    expect((await connect({ secretKey: key, webhookSecret: whsec })).status).toBe(200);
    const { db, secrets, clock } = t.server.services;
    const newKey = deriveSecrets(randomBytes(32)).webhookSecretKey;
    const result = await rekeyAllSecrets(db, [secrets.webhookSecretKey], newKey, clock.now());
    expect(result.stripeConnections).toBe(1);
    const row = await db.selectFrom('stripe_connections').selectAll().executeTakeFirstOrThrow();
    expect(decryptSecret(newKey, row.secret_key_enc)).toBe(key);
    expect(decryptSecret(newKey, row.webhook_secret_enc!)).toBe(whsec);
    expect(() => decryptSecret(secrets.webhookSecretKey, row.secret_key_enc)).toThrow();
    // Back under the running server's key, so the rest of the file's server goes on as it was.
    await rekeyAllSecrets(db, [newKey], secrets.webhookSecretKey, clock.now());
  });
});
