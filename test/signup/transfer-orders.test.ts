// Orders paid by bank transfer (issue 27 item 4): POST /events/{eventId}/orders (createOrder, the
// tool create_order) and the public form's paid tickets take the same path: places held, status
// transfer, total and VAT from the ticket type's price and rate, no attendee.registered until the
// order is marked paid; then the ticket is valid. Idempotent, 201, strict, orders:write, payments
// module, refused in the demonstration workspace, never oversold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { expectProblem } from '../support/fixtures';
import { pricedTicketType } from '../support/pending-orders';
import { callTool, outbox, person } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, publishedEvent, sendForm } from '../support/sign-up';

let t: TestServer;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Transfer orders', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const registered = async () =>
  (await outbox(t, workspaceId)).filter((m) => m.type === 'attendee.registered').length;
const taken = async (typeId: string) =>
  (await db().selectFrom('ticket_types').select('taken').where('id', '=', typeId).executeTakeFirstOrThrow())
    .taken;

describe('createOrder', () => {
  it('holds places in an order awaiting transfer with its VAT, and issues the tickets when marked paid', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 12_500, 25);
    const before = await registered();
    const made = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': 'order-one-0001' },
      body: { attendees: [person(typeId), person(typeId)], buyerCompany: 'Fjord AS' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'transfer',
      total: 250,
      vat: 50,
      currency: 'EUR',
      attendees: 2,
      source: 'workspace',
    });
    expect(await taken(typeId)).toBe(2);
    expect(await registered()).toBe(before);
    const again = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': 'order-one-0001' },
      body: { attendees: [person(typeId), person(typeId)], buyerCompany: 'Fjord AS' },
    });
    expect(again.status).toBe(422);
    const another = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': 'order-one-0002' },
      body: { attendees: [person(typeId)] },
    });
    expect(another.status).toBe(201);
    expect(await taken(typeId)).toBe(3);

    const paid = await t.api(`/events/${event.eventId}/orders/${made.body.orderId}/mark-paid`, {
      key,
      method: 'POST',
      body: { method: 'transfer', provider: 'DNB' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe('paid');
    expect(await registered()).toBe(before + 2);
    const tickets = await db()
      .selectFrom('attendees')
      .select(['id', 'status'])
      .where('order_id', '=', made.body.orderId)
      .execute();
    expect(tickets.map((a) => a.status)).toEqual(['active', 'active']);
    const shown = (await t.api(`/events/${event.eventId}/attendees/${tickets[0]!.id}`, { key })).body;
    expect(shown).toMatchObject({ status: 'active', orderStatus: 'paid', valid: true });
  });

  it('is never oversold, refuses bad bodies, needs orders:write, and is refused in the demonstration', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 5_000, 0);
    await db().updateTable('ticket_types').set({ capacity: 1 }).where('id', '=', typeId).execute();
    const path = `/events/${event.eventId}/orders`;
    expect((await t.api(path, { key, method: 'POST', body: { attendees: [person(typeId)] } })).status).toBe(
      201,
    );
    expectProblem(
      await t.api(path, { key, method: 'POST', body: { attendees: [person(typeId)] } }),
      400,
      'soldOut',
    );
    expectProblem(
      await t.api(path, {
        key,
        method: 'POST',
        body: { attendees: [person(typeId)], paymentMethod: 'card' },
      }),
      400,
      'invalidRequest',
    );
    expectProblem(
      await t.api(path, { key, method: 'POST', body: { attendees: [person(typeId, { email: 'nope' })] } }),
      400,
      'invalid',
    );
    const { key: reader } = await t.key({
      workspaceId,
      scopes: ['orders:read', 'attendees:write'],
      expires: 'never',
    });
    expectProblem(
      await t.api(path, { key: reader, method: 'POST', body: { attendees: [person(typeId)] } }),
      403,
      'missingScope',
    );
    const demoEvent = await db()
      .selectFrom('events')
      .select('id')
      .where('workspace_id', '=', demoWorkspaceId)
      .executeTakeFirstOrThrow();
    expectProblem(
      await t.api(`/events/${demoEvent.id}/orders`, {
        key: t.server.demoKey,
        method: 'POST',
        body: { attendees: [] },
      }),
      403,
      'demoWorkspace',
    );
    expect(await taken(typeId)).toBe(1);
  });

  it('takes orders through the tool create_order', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 1_000, 10);
    const client = await t.mcp(key);
    const made = await callTool(client, 'create_order', {
      eventId: event.eventId,
      attendees: [person(typeId)],
      idempotencyKey: 'tool-order-0001',
    });
    expect(made.isError, JSON.stringify(made.data)).toBe(false);
    expect(made.data).toMatchObject({ status: 'transfer', total: 10, vat: 0.91 });
    await client.close();
  });
});

describe('paid tickets on the public form', () => {
  it('end in an order awaiting transfer with the reference, the amount and the payment instructions', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 34_900, 25);
    await t.api(`/events/${event.eventId}/sign-up`, {
      key,
      method: 'PATCH',
      body: { paymentInstructions: 'Pay to IBAN NO93 8601 1117 947, quoting the order reference.' },
    });
    const before = await registered();
    const sent = await sendForm(t, event.slug, {
      [`qty.${typeId}`]: '1',
      ...formPerson(0),
      action: 'register',
    });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.location).toMatch(new RegExp(`^/e/${event.slug}/orders/[0-9a-f-]{36}$`));
    const orderId = sent.location!.split('/').pop()!;
    const order = await db()
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      status: 'transfer',
      total_minor: 34_900,
      vat_minor: 6_980,
      source: 'registration',
    });
    expect(await registered()).toBe(before);
    const end = await t.fetch(`${t.server.origin}${sent.location}`);
    const text = await end.text();
    expect(end.status).toBe(200);
    expect(text).toContain(order.reference);
    expect(text).toContain('€349.00');
    expect(text).toContain('Pay to IBAN NO93 8601 1117 947, quoting the order reference.');
    expect(text).toContain('Your tickets are issued when the payment arrives.');
    expect(
      (await t.fetch(`${t.server.origin}/e/${event.slug}/orders/00000000-0000-4000-8000-000000000000`))
        .status,
    ).toBe(404);
  });
});
