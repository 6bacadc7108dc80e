// Issue 52, item 4: a waiting list per ticket type. Sold out, people join it (the API, MCP, the public
// page); a place that comes free (a cancellation, a raised capacity, an offer run out) is offered to
// the first in line by e-mail and held for them, so the public cannot take it; the offer's link
// registers them in the held place; the organiser lists, adds, removes and offers ahead of the line;
// erasure reaches the entries. Real server, real SMTP server, the clock moved by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees';
import { verifyKeyId } from '../../core/platform/pipeline/authenticate';
import { invoke } from '../../core/platform/pipeline/invoke';
import { isProblem } from '../../core/platform/problems';
import { expireWaitingOffers } from '../../core/waiting-list';
import { mailFrom, serverWithMail } from '../mail/mail-support';
import { expectProblem } from '../support/fixtures';
import { pricedTicketType } from '../support/pending-orders';
import { callTool, person, register } from '../support/sales';
import { MutableClock, type TestServer } from '../support/server';
import { formPerson, publishedEvent, sendForm } from '../support/sign-up';
import type { SmtpTestServer } from '../support/smtp';
import { offerLinkSent } from '../support/waiting-offers';

const clock = new MutableClock();
let t: TestServer;
let smtp: SmtpTestServer;
let key: string;
let keyId: string;
let readerKey: string;
let eventId: string;
let slug: string;
let typeId: string;
const tickets: string[] = [];

const entries = async () =>
  t.server.services.db
    .selectFrom('waiting_list_entries')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('position')
    .execute();
const entryOf = async (email: string) => (await entries()).find((e) => e.email === email)!;
const typeRow = () =>
  t.server.services.db
    .selectFrom('ticket_types')
    .selectAll()
    .where('id', '=', typeId)
    .executeTakeFirstOrThrow();
const join = (email: string, firstName = 'Wait') =>
  t.api(`/events/${eventId}/waiting-list`, {
    key,
    method: 'POST',
    body: { ticketTypeId: typeId, firstName, lastName: 'Listed', email },
  });
const cancel = (attendeeId: string) =>
  t.api(`/events/${eventId}/attendees/${attendeeId}/cancel`, { key, method: 'POST', body: {} });

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail({ clock }));
  const { workspaceId } = await t.workspace('Waiting workspace');
  ({ key, apiKeyId: keyId } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: readerKey } = await t.key({ workspaceId, scopes: ['attendees:read'], expires: 'never' }));
  ({ eventId, slug } = await publishedEvent(t, key));
  const made = await t.api(`/events/${eventId}/ticket-types`, {
    key,
    method: 'POST',
    body: { name: 'Workshop seat', capacity: 2, waitingList: true },
  });
  expect(made.status).toBe(201);
  expect(made.body.waitingList).toBe(true);
  typeId = made.body.ticketTypeId;
  for (const who of ['one', 'two']) {
    const done = await register(t, key, eventId, [person(typeId, { email: `${who}@ticket.test` })]);
    expect(done.status).toBe(201);
    tickets.push(done.body.attendees[0].attendeeId);
  }
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('joining a waiting list', () => {
  it('refuses a ticket type that keeps no list with 400 registrationRefused (waitingListOff)', async () => {
    const other = await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'No list', capacity: 1 },
    });
    expect(other.body.waitingList).toBe(false);
    const refused = await t.api(`/events/${eventId}/waiting-list`, {
      key,
      method: 'POST',
      body: { ticketTypeId: other.body.ticketTypeId, firstName: 'A', lastName: 'B', email: 'a@b.test' },
    });
    expect(expectProblem(refused, 400, 'registrationRefused').reason).toBe('waitingListOff');
  });

  it('puts people in line in join order over REST and MCP, and the same address again answers its entry', async () => {
    const first = await join('first@wait.test', 'First');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'waiting', position: 1, email: 'first@wait.test' });
    const client = await t.mcp(key);
    const second = await callTool(client, 'add_to_waiting_list', {
      eventId,
      ticketTypeId: typeId,
      firstName: 'Second',
      lastName: 'Listed',
      email: 'second@wait.test',
    });
    expect(second.isError).toBe(false);
    expect(second.data).toMatchObject({ status: 'waiting', position: 2 });
    await client.close();
    const again = await join('FIRST@wait.test', 'First');
    expect(again.body.waitingListEntryId).toBe(first.body.waitingListEntryId);
    expect(again.body.position).toBe(1);
  });

  it('offers joining on the sold-out public page, requires consent, and tells the person their place', async () => {
    const page = await (await t.fetch(`${t.server.origin}/e/${slug}`)).text();
    expect(page).toContain('Join the waiting list');
    expect(page).toContain('Sold out (waiting list below)');
    const fields = {
      'wait.ticketTypeId': typeId,
      'wait.firstName': 'Third',
      'wait.lastName': 'Public',
      'wait.email': 'third@wait.test',
    };
    const res = await postJoin(fields);
    expect(res.status).toBe(422);
    expect(res.text).toContain('Agree to be e-mailed');
    const joined = await postJoin({ ...fields, 'wait.consent': 'yes' });
    expect(joined.status).toBe(200);
    expect(joined.text).toContain('number 3');
    const entry = await entryOf('third@wait.test');
    expect(entry.consent_utc).not.toBeNull();
  });

  it('refuses joining from the public page while places are left (registrationRefused notSoldOut)', async () => {
    const roomy = await t.api(`/events/${eventId}/ticket-types`, {
      key,
      method: 'POST',
      body: { name: 'Roomy', capacity: 10, waitingList: true },
    });
    const res = await postJoin({
      'wait.ticketTypeId': roomy.body.ticketTypeId,
      'wait.firstName': 'Early',
      'wait.lastName': 'Bird',
      'wait.email': 'early@wait.test',
      'wait.consent': 'yes',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('has places left');
  });
});

describe('a place that comes free', () => {
  it('is offered to the first in line by e-mail and held: the public cannot take it', async () => {
    expect((await cancel(tickets[0]!)).status).toBe(200);
    const first = await entryOf('first@wait.test');
    expect(first.status).toBe('offered');
    expect(first.offer_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(first.offer_expires_utc!) - Date.parse(first.offered_utc!)).toBe(48 * 3_600_000);
    expect((await entryOf('second@wait.test')).status).toBe('waiting');
    expect((await typeRow()).taken).toBe(2);
    const link = await offerLinkSent(smtp, 'first@wait.test');
    const mail = smtp.received.find((m) => m.to.includes('first@wait.test'))!;
    expect(mail.from).toContain(mailFrom);
    expect(mail.html).toContain('Take your place');
    // The token is kept only as its hash.
    expect(first.offer_token_hash).not.toContain(link.slice(-32));
    const refused = await register(t, key, eventId, [person(typeId)]);
    expectProblem(refused, 400, 'soldOut');
    // The public form too: sold out, pointing at the waiting list.
    const form = await sendForm(t, slug, { [`qty.${typeId}`]: '1', ...formPerson(0) });
    expect(form.status).toBe(409);
    expect(form.text).toContain('#waiting-list');
  });

  it('registers the person through the offer link in the held place, without taking another', async () => {
    const link = await offerLinkSent(smtp, 'first@wait.test');
    const page = await t.fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('value="first@wait.test"');
    expect(html).toContain('is held for you until');
    const token = /name="formToken" value="([^"]+)"/.exec(html)![1]!;
    const body = new URLSearchParams({
      formToken: token,
      step: '2',
      'person.0.firstName': 'First',
      'person.0.lastName': 'Listed',
      'person.0.email': 'first@wait.test',
    });
    const res = await t.fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/registered\?t=/);
    const entry = await entryOf('first@wait.test');
    expect(entry.status).toBe('accepted');
    expect(entry.order_id).not.toBeNull();
    expect((await typeRow()).taken).toBe(2);
    const active = await t.server.services.db
      .selectFrom('attendees')
      .select('email')
      .where('ticket_type_id', '=', typeId)
      .where('status', '=', 'active')
      .execute();
    expect(active.map((a) => a.email).sort()).toEqual(['first@wait.test', 'two@ticket.test']);
    // The link is spent.
    expect((await t.fetch(link)).status).toBe(410);
  });

  it('runs out after its time: the place is released and offered to the next in line', async () => {
    expect((await cancel(tickets[1]!)).status).toBe(200);
    const second = await entryOf('second@wait.test');
    expect(second.status).toBe('offered');
    const link = await offerLinkSent(smtp, 'second@wait.test');
    clock.advance(48 * 3_600_000 + 1_000);
    await expireWaitingOffers(t.server.services);
    expect((await entryOf('second@wait.test')).status).toBe('expired');
    expect((await entryOf('third@wait.test')).status).toBe('offered');
    expect((await typeRow()).taken).toBe(2);
    await offerLinkSent(smtp, 'third@wait.test');
    expect((await t.fetch(link)).status).toBe(410);
  });

  it('refuses, in the registration itself, an offer that ended meanwhile (registrationRefused waitingOfferEnded)', async () => {
    // A form sent from the offer's page just as the offer ran out: the page let it through, the
    // registration's own check (in its transaction) refuses it and takes no place.
    const ended = await entryOf('second@wait.test');
    const verified = await verifyKeyId(t.server.services, keyId);
    if (!verified.ok) throw new Error('the key does not verify');
    const services = t.server.services;
    const ctx = {
      db: services.db,
      clock: services.clock,
      actor: verified.actor,
      services,
      request: { origin: t.server.origin },
      waitingOffer: { entryId: ended.id, ticketTypeId: typeId },
    };
    const refused = await invoke(registerAttendees, ctx, {
      eventId,
      attendees: [person(typeId, { email: 'second@wait.test' })],
    }).catch((error: unknown) => error);
    expect(isProblem(refused) && refused.code).toBe('registrationRefused');
    expect(isProblem(refused) && refused.extras.reason).toBe('waitingOfferEnded');
    expect((await typeRow()).taken).toBe(2);
  });

  it('is offered when the capacity is raised, as many places as were added', async () => {
    await join('fourth@wait.test');
    await join('fifth@wait.test');
    await join('sixth@wait.test');
    const raised = await t.api(`/events/${eventId}/ticket-types/${typeId}`, {
      key,
      method: 'PATCH',
      body: { capacity: 4 },
    });
    expect(raised.status).toBe(200);
    expect((await entryOf('fourth@wait.test')).status).toBe('offered');
    expect((await entryOf('fifth@wait.test')).status).toBe('offered');
    expect((await entryOf('sixth@wait.test')).status).toBe('waiting');
    expect((await typeRow()).taken).toBe(4);
  });
});

describe('the organiser', () => {
  it('lists the list with places in line; names and e-mail need people:read', async () => {
    const listed = await t.api(`/events/${eventId}/waiting-list?ticketTypeId=${typeId}&limit=2`, { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.nextCursor).toBeTruthy();
    const waiting = await t.api(`/events/${eventId}/waiting-list?status=waiting`, { key });
    expect(waiting.body.data.map((e: any) => [e.email, e.position])).toEqual([['sixth@wait.test', 1]]);
    const client = await t.mcp(key, {}, '?toolsets=waitingList');
    const viaMcp = await callTool(client, 'list_waiting_list', { eventId, status: 'waiting' });
    await client.close();
    expect(viaMcp.data.data.map((e: any) => e.email)).toEqual(['sixth@wait.test']);
    const redacted = await t.api(`/events/${eventId}/waiting-list?status=waiting`, { key: readerKey });
    expect(redacted.body.data[0]).toMatchObject({ email: null, firstName: null, personalData: 'withheld' });
  });

  it('removes an entry holding an offer: its place goes to the next in line', async () => {
    const fifth = await entryOf('fifth@wait.test');
    const removed = await t.api(`/events/${eventId}/waiting-list/${fifth.id}`, { key, method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await entryOf('fifth@wait.test')).status).toBe('removed');
    expect((await entryOf('sixth@wait.test')).status).toBe('offered');
    expect((await typeRow()).taken).toBe(4);
  });

  it('offers a place ahead of the line, and refuses with 400 soldOut when none is free', async () => {
    const seventh = (await join('seventh@wait.test')).body.waitingListEntryId;
    const eighth = (await join('eighth@wait.test')).body.waitingListEntryId;
    const full = await t.api(`/events/${eventId}/waiting-list/${eighth}/offer`, {
      key,
      method: 'POST',
      body: {},
    });
    expectProblem(full, 400, 'soldOut');
    await t.api(`/events/${eventId}/ticket-types/${typeId}`, { key, method: 'PATCH', body: { capacity: 5 } });
    // The raised place went to the first in line; the next, raised with the list off, is offered on its switch back.
    expect((await entryOf('seventh@wait.test')).id).toBe(seventh);
    expect((await entryOf('seventh@wait.test')).status).toBe('offered');
    await t.api(`/events/${eventId}/ticket-types/${typeId}`, {
      key,
      method: 'PATCH',
      body: { capacity: 6, waitingList: false },
    });
    const closed = await t.api(`/events/${eventId}/waiting-list/${eighth}/offer`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(expectProblem(closed, 400, 'registrationRefused').reason).toBe('waitingListOff');
    await t.api(`/events/${eventId}/ticket-types/${typeId}`, {
      key,
      method: 'PATCH',
      body: { waitingList: true },
    });
    expect((await entryOf('eighth@wait.test')).status).toBe('offered');
  });
});

describe('a priced ticket type and the offer time', () => {
  it('takes a priced offer up as an order awaiting transfer, in the held place', async () => {
    const priced = await pricedTicketType(t.server.services.db, eventId, 50_000, 25);
    await t.server.services.db
      .updateTable('ticket_types')
      .set({ capacity: 1, waiting_list: 1 })
      .where('id', '=', priced)
      .execute();
    const order = await t.api(`/events/${eventId}/orders`, {
      key,
      method: 'POST',
      body: { attendees: [person(priced)] },
    });
    expect(order.status).toBe(201);
    const joined = await t.api(`/events/${eventId}/waiting-list`, {
      key,
      method: 'POST',
      body: { ticketTypeId: priced, firstName: 'Paying', lastName: 'Guest', email: 'paying@wait.test' },
    });
    expect(joined.body.status).toBe('waiting');
    const ticket = await t.server.services.db
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', order.body.orderId)
      .executeTakeFirstOrThrow();
    expect((await cancel(ticket.id)).status).toBe(200);
    const link = await offerLinkSent(smtp, 'paying@wait.test');
    const html = await (await t.fetch(link)).text();
    const token = /name="formToken" value="([^"]+)"/.exec(html)![1]!;
    const res = await t.fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        formToken: token,
        step: '2',
        'person.0.firstName': 'Paying',
        'person.0.lastName': 'Guest',
        'person.0.email': 'paying@wait.test',
      }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/orders\//);
    const entry = await entryOf('paying@wait.test');
    expect(entry.status).toBe('accepted');
    const made = await t.server.services.db
      .selectFrom('orders')
      .select(['status', 'total_minor'])
      .where('id', '=', entry.order_id!)
      .executeTakeFirstOrThrow();
    expect(made).toEqual({ status: 'transfer', total_minor: 50_000 });
    const type = await t.server.services.db
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', priced)
      .executeTakeFirstOrThrow();
    expect(type.taken).toBe(1);
  });

  it("holds an offer for the hours the event's sign-up settings say", async () => {
    const set = await t.api(`/events/${eventId}/sign-up`, {
      key,
      method: 'PATCH',
      body: { waitingListOfferHours: 2 },
    });
    expect(set.status).toBe(200);
    expect(set.body.waitingListOfferHours).toBe(2);
    await join('hours@wait.test');
    const capacity = (await typeRow()).capacity!;
    await t.api(`/events/${eventId}/ticket-types/${typeId}`, {
      key,
      method: 'PATCH',
      body: { capacity: capacity + 1 },
    });
    const entry = await entryOf('hours@wait.test');
    expect(entry.status).toBe('offered');
    expect(Date.parse(entry.offer_expires_utc!) - Date.parse(entry.offered_utc!)).toBe(2 * 3_600_000);
  });
});

describe('erasure', () => {
  it('reaches waiting-list entries: names and address gone, the entry marked erased', async () => {
    const erased = await t.api('/people/erasure', {
      key,
      method: 'POST',
      body: { email: 'sixth@wait.test' },
    });
    expect(erased.status).toBe(200);
    const row = (await entries()).find((e) => e.erased === 1)!;
    expect(row).toMatchObject({ first_name: null, last_name: null, email: null, erased: 1 });
    const listed = await t.api(`/events/${eventId}/waiting-list`, { key });
    const entry = listed.body.data.find((e: any) => e.waitingListEntryId === row.id);
    expect(entry).toMatchObject({ erased: true, personalData: 'erased', email: null });
  });
});

async function postJoin(fields: Record<string, string>) {
  const page = await (await t.fetch(`${t.server.origin}/e/${slug}`)).text();
  const token = /name="formToken" value="([^"]+)"/.exec(page)![1]!;
  const res = await t.fetch(`${t.server.origin}/e/${slug}/waiting`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, formToken: token }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}
