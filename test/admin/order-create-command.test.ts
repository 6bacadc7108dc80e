// `tessera order create` (issue 52 item 2, at the command line): the API's createOrder run by the
// operator, each way an organiser takes an order: paid elsewhere (cash at the desk: valid at once,
// the tickets' e-mail queued), complimentary (nothing charged, the reason kept), awaiting a transfer
// with a discount code off, and by card (the payment link printed, the places held, the session at
// the Stripe stand-in). Refused, changing nothing, without the service's e-mail settings; arguments
// a kind does not take are refused before anything is opened. Run as the real command beside a
// server sending through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToRegisterFor, mailFrom, mailRows, serverWithMail } from '../mail/mail-support';
import { pricedTicketType } from '../support/pending-orders';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { runTessera } from '../support/spawned';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { connectedWorkspace } from '../support/stripe-workspace';

let t: TestServer;
let smtp: SmtpTestServer;
let stripe: StripeStandIn;
let env: Record<string, string>;
let workspaceId: string;
let eventId: string;
/** 1,250.00 with 25 % VAT. */
let passId: string;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  const stripeEnv = { TESSERA_STRIPE_API_URL: stripe.origin };
  ({ t, smtp } = await serverWithMail({ env: stripeEnv }));
  env = {
    ...stripeEnv,
    TESSERA_SMTP_URL: smtp.url,
    TESSERA_MAIL_FROM: mailFrom,
    TESSERA_PUBLIC_URL: 'https://events.example.org',
  };
  ({ workspaceId, eventId } = await eventToRegisterFor(t));
  passId = await pricedTicketType(t.server.services.db, eventId, 125_000, 25);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await stripe?.close();
});

const create = (args: string[], settings = env, workspace = workspaceId, event = eventId) =>
  runTessera(
    [
      'order',
      'create',
      '--workspace',
      workspace,
      '--event',
      event,
      '--ticket-type',
      passId,
      '--data',
      t.dataDir,
      ...args,
    ],
    settings,
  );

const ordersOf = (event = eventId) =>
  t.server.services.db.selectFrom('orders').selectAll().where('event_id', '=', event).execute();

describe('tessera order create', () => {
  it('takes a cash payment at the desk: paid, the tickets valid and their e-mail queued', async () => {
    const run = await create([
      '--attendee',
      'Alan Turing <alan@example.org>',
      '--attendee',
      'Hopper, Grace Brewster <grace@example.org>',
      '--payment',
      'paidElsewhere',
      '--method',
      'cash',
      '--reference',
      'Receipt 17',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const order = JSON.parse(run.stdout);
    expect(order).toMatchObject({ status: 'paid', paymentMethod: 'cash', total: 2500, attendees: 2 });
    const people = await t.server.services.db
      .selectFrom('attendees')
      .select(['first_name', 'last_name', 'status'])
      .where('order_id', '=', order.orderId)
      .orderBy('email')
      .execute();
    expect(people).toEqual([
      { first_name: 'Alan', last_name: 'Turing', status: 'active' },
      { first_name: 'Grace Brewster', last_name: 'Hopper', status: 'active' },
    ]);
    const mails = await mailRows(t, eventId);
    expect(mails.filter((m) => m.cause_kind === 'ticketIssued')).toHaveLength(2);
  });

  it('gives a complimentary ticket with its reason: nothing charged, counted apart', async () => {
    const run = await create([
      '--attendee',
      'Ada Lovelace <ada@example.org>',
      '--payment',
      'complimentary',
      '--reason',
      'speaker',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'free',
      total: 0,
      paymentMethod: 'complimentary',
    });
  });

  it('takes an order awaiting a transfer by default, a discount code off', async () => {
    const key = (await t.key({ workspaceId, preset: 'everything', expires: 'never' })).key;
    const made = await t.api(`/events/${eventId}/discount-codes`, {
      key,
      method: 'POST',
      body: { code: 'DESK20', percent: 20 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const run = await create([
      '--attendee',
      'Edsger Dijkstra <edsger@example.org>',
      '--discount-code',
      'desk20',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'transfer', total: 1000, discount: 250 });
  });

  it('takes a card order: the payment link printed, the places held for the Checkout session', async () => {
    const connected = await connectedWorkspace(t, stripe, 'Desk with cards');
    const made = await t.api('/events', {
      key: connected.key,
      method: 'POST',
      body: {
        name: 'Card desk',
        startsLocal: '2031-05-01T09:00',
        endsLocal: '2031-05-01T17:00',
        timeZone: 'Europe/Oslo',
        venue: { name: 'Desk', city: 'Oslo', country: 'NO' },
        currency: 'NOK',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const cardEvent = made.body.eventId as string;
    const typeId = await pricedTicketType(t.server.services.db, cardEvent, 50_000, 25);
    const run = await runTessera(
      [
        'order',
        'create',
        '--workspace',
        connected.workspaceId,
        '--event',
        cardEvent,
        '--ticket-type',
        typeId,
        '--attendee',
        'Barbara Liskov <barbara@example.org>',
        '--payment',
        'card',
        '--hold-minutes',
        '60',
        '--data',
        t.dataDir,
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const order = JSON.parse(run.stdout);
    expect(order).toMatchObject({ status: 'pending', total: 500 });
    expect(order.checkout.paymentUrl).toMatch(new RegExp(`^${stripe.origin}/checkout/cs_test_`));
    const session = stripe.sessions.get(order.checkout.paymentUrl.split('/').at(-1))!;
    expect(session.client_reference_id).toBe(order.orderId);
    expect(session.success_url).toContain('https://events.example.org/e/');
    const type = await t.server.services.db
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', typeId)
      .executeTakeFirstOrThrow();
    expect(type.taken).toBe(1);
  });

  it("refuses without the service's e-mail settings and changes nothing", async () => {
    const before = (await ordersOf()).length;
    const run = await create(
      ['--attendee', 'Alan Kay <kay@example.org>', '--payment', 'paidElsewhere', '--method', 'card'],
      { TESSERA_PUBLIC_URL: 'https://events.example.org' },
    );
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr).error).toBe('emailNotSent');
    expect((await ordersOf()).length).toBe(before);
    // --no-email: the service sends none, so the order is taken.
    const quiet = await create(
      [
        '--attendee',
        'Alan Kay <kay@example.org>',
        '--payment',
        'paidElsewhere',
        '--method',
        'card',
        '--no-email',
      ],
      {},
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout)).toMatchObject({ status: 'paid', paymentMethod: 'card' });
  });

  it('refuses what a kind does not take, a person without a last name, and a method it does not know', async () => {
    const before = (await ordersOf()).length;
    const stray = await create(['--attendee', 'Alan Kay <kay@example.org>', '--reason', 'press']);
    expect(stray.code).not.toBe(0);
    expect(JSON.parse(stray.stderr).detail).toContain('--payment transfer takes no --reason');
    const oneName = await create(['--attendee', 'Plato <plato@example.org>']);
    expect(oneName.code).not.toBe(0);
    expect(JSON.parse(oneName.stderr).detail).toContain('a first and a last name');
    const method = await create([
      '--attendee',
      'Alan Kay <kay@example.org>',
      '--payment',
      'paidElsewhere',
      '--method',
      'barter',
    ]);
    expect(method.code).not.toBe(0);
    expect(JSON.parse(method.stderr)).toMatchObject({ error: 'invalidRequest' });
    expect(JSON.parse(method.stderr).detail).toContain('payment.method');
    expect((await ordersOf()).length).toBe(before);
  });
});
