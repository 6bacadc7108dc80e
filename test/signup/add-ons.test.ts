// Add-ons a person chooses with a ticket (issue 27 item 4): `addOns` of each person of
// registerAttendees and createOrder. Each rule named per field, a free registration refusing a
// priced add-on, places taken all or nothing (never oversold), priced into an order and its
// invoice, given back on cancellation; the scanner's add-on door then admits the person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOnTaken, insertAddOn } from '../support/add-ons';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { pricedTicketType } from '../support/pending-orders';
import { addTicketType, callTool, person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { publishedEvent } from '../support/sign-up';

let t: TestServer;
let key: string;
let workspaceId: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Add-ons', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const typeTaken = async (id: string) =>
  (await db().selectFrom('ticket_types').select('taken').where('id', '=', id).executeTakeFirstOrThrow())
    .taken;
const chosen = (attendeeId: string) =>
  db()
    .selectFrom('attendee_add_ons')
    .select(['add_on_id', 'quantity'])
    .where('attendee_id', '=', attendeeId)
    .execute();

describe('registerAttendees with add-ons', () => {
  it('writes the add-on chosen, takes its place, and the add-on door then admits the person', async () => {
    const before = await addOnTaken(db(), e.workshop);
    const res = await register(t, key, e.eventId, [
      person(e.general, { addOns: [{ addOnId: e.workshop }] }),
      person(e.general),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [withIt, without] = res.body.attendees.map((a: { attendeeId: string }) => a.attendeeId);
    expect(await chosen(withIt)).toEqual([{ add_on_id: e.workshop, quantity: 1 }]);
    expect(await chosen(without)).toEqual([]);
    expect(await addOnTaken(db(), e.workshop)).toBe(before + 1);
    const scan = (attendeeId: string) =>
      t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, {
        key,
        method: 'POST',
        body: { doorId: e.doors.session },
      });
    expect((await scan(without)).body).toMatchObject({ result: 'noAddOn', admitted: false });
    expect((await scan(withIt)).body).toMatchObject({ result: 'welcome', admitted: true });
    // The ticket page lists it too (and not on the other's).
    const ticketPage = async (i: number) =>
      (await t.fetch(`${t.server.origin}/t/${res.body.attendees[i].ticketCode}`)).text();
    expect(await ticketPage(0)).toContain('<dt>Add-ons</dt><dd><ul><li>Workshop</li></ul></dd>');
    expect(await ticketPage(1)).not.toContain('<li>Workshop</li>');
  });

  it('names each wrong add-on by its field: unknown, listed twice, already included', async () => {
    const other = await publishedEvent(t, key);
    const foreign = await insertAddOn(db(), other.eventId);
    const res = await register(t, key, e.eventId, [
      person(e.general, { addOns: [{ addOnId: foreign }] }),
      person(e.general, { addOns: [{ addOnId: e.workshop }, { addOnId: e.workshop }] }),
      person(e.vip, { addOns: [{ addOnId: e.workshop }] }),
    ]);
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors.map((x: { field: string }) => x.field)).toEqual([
      'attendees.0.addOns.0.addOnId',
      'attendees.1.addOns.1.addOnId',
      'attendees.2.addOns.0.addOnId',
    ]);
    const zero = await register(t, key, e.eventId, [
      person(e.general, { addOns: [{ addOnId: e.workshop, quantity: 0 }] }),
    ]);
    expect(zero.status).toBe(400);
    const strict = await register(t, key, e.eventId, [
      person(e.general, { addOns: [{ addOnId: e.workshop, colour: 'red' }] }),
    ]);
    expect(strict.status).toBe(400);
  });

  it('refuses a priced add-on in a free registration with registrationRefused addOnNotFree, nothing taken', async () => {
    const dinner = await insertAddOn(db(), e.eventId, { priceMinor: 4_500, vatRate: 25 });
    const before = await typeTaken(e.general);
    const res = await register(t, key, e.eventId, [person(e.general, { addOns: [{ addOnId: dinner }] })]);
    const body = expectProblem(res, 400, 'registrationRefused');
    expect(body).toMatchObject({ reason: 'addOnNotFree', addOnId: dinner });
    expect(await typeTaken(e.general)).toBe(before);
    expect(await addOnTaken(db(), dinner)).toBe(0);
  });

  it('sells an add-on with 5 places to 5 of 30 concurrent registrations; the others are refused addOnSoldOut, all or nothing', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await addTicketType(t, event.eventId);
    const tour = await insertAddOn(db(), event.eventId, { name: 'Tour', capacity: 5 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        register(t, key, event.eventId, [person(typeId, { addOns: [{ addOnId: tour }] })]),
      ),
    );
    const ok = answers.filter((a) => a.status === 201);
    expect(ok).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 201))
      expect(expectProblem(refused, 400, 'registrationRefused')).toMatchObject({
        reason: 'addOnSoldOut',
        addOnId: tour,
      });
    expect(await addOnTaken(db(), tour)).toBe(5);
    // The refused ones took no ticket place either.
    expect(await typeTaken(typeId)).toBe(5);
    const rows = await db()
      .selectFrom('attendee_add_ons')
      .select('attendee_id')
      .where('add_on_id', '=', tour)
      .execute();
    expect(rows).toHaveLength(5);
  });

  it('gives the add-on places back when the ticket is cancelled', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await addTicketType(t, event.eventId);
    const tour = await insertAddOn(db(), event.eventId, { name: 'Tour', capacity: 3 });
    const res = await register(t, key, event.eventId, [
      person(typeId, { addOns: [{ addOnId: tour, quantity: 2 }] }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await addOnTaken(db(), tour)).toBe(2);
    const more = await register(t, key, event.eventId, [
      person(typeId, { addOns: [{ addOnId: tour, quantity: 2 }] }),
    ]);
    expect(expectProblem(more, 400, 'registrationRefused').reason).toBe('addOnSoldOut');
    const cancel = await t.api(
      `/events/${event.eventId}/attendees/${res.body.attendees[0].attendeeId}/cancel`,
      {
        key,
        method: 'POST',
      },
    );
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await addOnTaken(db(), tour)).toBe(0);
    expect(await typeTaken(typeId)).toBe(0);
  });
});

describe('createOrder with add-ons', () => {
  it('prices the add-ons into the total and VAT, and the paid invoice bills a line for them', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 10_000, 25);
    const dinner = await insertAddOn(db(), event.eventId, {
      name: 'Dinner',
      priceMinor: 2_000,
      vatRate: 25,
      capacity: 10,
    });
    const made = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': 'add-on-order-0001' },
      body: { attendees: [person(typeId, { addOns: [{ addOnId: dinner, quantity: 2 }] }), person(typeId)] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // 2 × 100.00 + 2 × 20.00, VAT 25 % within: 40.00 + 8.00.
    expect(made.body).toMatchObject({ status: 'transfer', total: 240, vat: 48 });
    expect(await addOnTaken(db(), dinner)).toBe(2);
    const settings = await t.api(`/events/${event.eventId}/invoicing`, { key });
    const invoicing = await t.api(`/events/${event.eventId}/invoicing`, {
      key,
      method: 'PATCH',
      headers: { 'if-match': settings.headers.get('etag')! },
      body: { enabled: true, sellerName: 'Nordic Events AS', sellerAddress: 'Storgata 1, 0155 Oslo' },
    });
    expect(invoicing.status, JSON.stringify(invoicing.body)).toBe(200);
    const paid = await t.api(`/events/${event.eventId}/orders/${made.body.orderId}/mark-paid`, {
      key,
      method: 'POST',
      body: { method: 'transfer', provider: 'DNB' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const lines = await db()
      .selectFrom('invoice_lines')
      .innerJoin('invoices', 'invoices.id', 'invoice_lines.invoice_id')
      .select([
        'invoice_lines.add_on_id',
        'invoice_lines.quantity',
        'invoice_lines.unit_price_minor',
        'invoice_lines.total_minor',
      ])
      .where('invoices.order_id', '=', made.body.orderId)
      .orderBy('invoice_lines.sort')
      .execute();
    expect(lines).toEqual([
      { add_on_id: null, quantity: 2, unit_price_minor: 10_000, total_minor: 20_000 },
      { add_on_id: dinner, quantity: 2, unit_price_minor: 2_000, total_minor: 4_000 },
    ]);
  });

  it('takes add-ons through the tools create_order and register_attendees', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 1_000, 10);
    const freeType = await addTicketType(t, event.eventId);
    const dinner = await insertAddOn(db(), event.eventId, { priceMinor: 500, vatRate: 10 });
    const client = await t.mcp(key);
    const made = await callTool(client, 'create_order', {
      eventId: event.eventId,
      attendees: [person(typeId, { addOns: [{ addOnId: dinner }] })],
      idempotencyKey: 'tool-add-on-order-0001',
    });
    expect(made.isError, JSON.stringify(made.data)).toBe(false);
    expect(made.data).toMatchObject({ status: 'transfer', total: 15 });
    const refused = await callTool(client, 'register_attendees', {
      eventId: event.eventId,
      attendees: [person(freeType, { addOns: [{ addOnId: dinner }] })],
      idempotencyKey: 'tool-add-on-register-0001',
    });
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ code: 'registrationRefused', reason: 'addOnNotFree' });
    await client.close();
  });

  it('refuses a sold-out add-on with registrationRefused addOnSoldOut, no place held', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await pricedTicketType(db(), event.eventId, 10_000, 25);
    const dinner = await insertAddOn(db(), event.eventId, { priceMinor: 2_000, capacity: 1 });
    const res = await t.api(`/events/${event.eventId}/orders`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': 'add-on-order-0002' },
      body: { attendees: [person(typeId, { addOns: [{ addOnId: dinner, quantity: 2 }] })] },
    });
    expect(expectProblem(res, 400, 'registrationRefused')).toMatchObject({
      reason: 'addOnSoldOut',
      addOnId: dinner,
    });
    expect(await typeTaken(typeId)).toBe(0);
    expect(await addOnTaken(db(), dinner)).toBe(0);
  });
});
