// Registration, POST /events/{eventId}/attendees, exactly as the spec gives it (issue "Sales
// core" 7): one order of 1 to 50 attendees, defaults, hidden and code-only types, answers checked
// but not required, the refusals (empty, tooMany, unknownTicket, invalid, registrationRefused,
// soldOut, demoWorkspace), Idempotency-Key, capacity under concurrency, and cursors that never
// skip or repeat while people keep registering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, countRows, outbox, person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let writer: string;
let writerNoPeople: string;
let everything: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;
let standard: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Registration workspace', true));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['attendees:write', 'people:read'] }));
  ({ key: writerNoPeople } = await t.key({ workspaceId, scopes: ['attendees:write'] }));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  standard = ids.ticketType('summit', 'standard');
});
afterAll(async () => t.close());

const order = (orderId: string, eventId = summit) =>
  t.api(`/events/${eventId}/orders/${orderId}`, { key: everything }).then((r) => r.body);

describe('a registration', () => {
  it('answers 201 with orderId, a six-character reference and the attendees, in one free order', async () => {
    const people = [person(standard, { company: 'Fjord Labs', jobTitle: 'CTO' }), person(standard)];
    const res = await register(t, writer, summit, people);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['attendees', 'orderId', 'reference']);
    expect(res.body.reference).toMatch(/^[A-Z0-9]{6}$/);
    expect(res.body.attendees).toHaveLength(2);
    res.body.attendees.forEach((a: any, i: number) => {
      expect(a).toMatchObject({
        eventId: summit,
        orderId: res.body.orderId,
        orderReference: res.body.reference,
        ticketTypeId: standard,
        ticketTypeName: 'Standard',
        firstName: people[i]!.firstName,
        lastName: people[i]!.lastName,
        email: people[i]!.email,
        status: 'active',
        orderStatus: 'free',
        valid: true,
        checkedInUtc: null,
        erased: false,
        personalData: 'included',
      });
      expect(a.changedUtc).toBe(a.updatedUtc);
    });
    expect(res.body.attendees[0]).toMatchObject({ company: 'Fjord Labs', jobTitle: 'CTO' });
    const made = await order(res.body.orderId);
    expect(made).toMatchObject({ reference: res.body.reference, status: 'free', attendees: 2, total: 0 });
    // The answer and each attendee.registered message show the attendee as it is stored.
    const messages = (await outbox(t, workspaceId)).filter(
      (m) => m.type === 'attendee.registered' && m.payload.data.attendee.orderId === res.body.orderId,
    );
    expect(messages.map((m) => m.payload.data.attendee.attendeeId)).toEqual(
      res.body.attendees.map((a: any) => a.attendeeId),
    );
    for (const [i, a] of res.body.attendees.entries()) {
      const read = await t.api(`/events/${summit}/attendees/${a.attendeeId}`, { key: everything });
      expect(read.body).toEqual(a);
      expect(messages[i]!.payload.data.attendee).toEqual(read.body);
    }
  });

  it('makes exactly one order and one attendee per person', async () => {
    const orders = await countRows(t, 'orders', summit);
    const attendees = await countRows(t, 'attendees', summit);
    const res = await register(t, writer, summit, [person(standard), person(standard), person(standard)]);
    expect(res.status).toBe(201);
    expect(await countRows(t, 'orders', summit)).toBe(orders + 1);
    expect(await countRows(t, 'attendees', summit)).toBe(attendees + 3);
  });

  it('withholds personal fields in the answer to a key without people:read', async () => {
    const res = await register(t, writerNoPeople, summit, [person(standard)]);
    expect(res.status).toBe(201);
    expect(res.body.attendees[0]).toMatchObject({ firstName: null, email: null, personalData: 'withheld' });
  });

  it('registers in the event’s first language by default, and in another of its languages when asked', async () => {
    const meetup = ids.event('meetup');
    const general = ids.ticketType('meetup', 'general');
    const byDefault = await register(t, writer, meetup, [person(general)]);
    expect(byDefault.status).toBe(201);
    expect(byDefault.body.attendees[0].language).toBe('ja');
    expect((await order(byDefault.body.orderId, meetup)).language).toBe('ja');
    const english = await register(t, writer, meetup, [person(general)], { body: { language: 'en' } });
    expect(english.body.attendees[0].language).toBe('en');
    expect((await order(english.body.orderId, meetup)).language).toBe('en');
  });

  it('refuses a language that is not one of the event’s with 400 invalidRequest', async () => {
    const res = await register(t, writer, summit, [person(standard)], { body: { language: 'de' } });
    expect(expectProblem(res, 400, 'invalidRequest').errors).toEqual([
      expect.objectContaining({ field: 'language' }),
    ]);
  });

  it('makes the first attendee the buyer when no buyer is given', async () => {
    const first = person(standard, { company: 'Polar Data' });
    const res = await register(t, writer, summit, [first, person(standard)]);
    expect(await order(res.body.orderId)).toMatchObject({
      buyerName: `${first.firstName} ${first.lastName}`,
      buyerEmail: first.email,
      buyerCompany: 'Polar Data',
    });
  });

  it('uses the buyer fields when they are sent', async () => {
    const res = await register(t, writer, summit, [person(standard)], {
      body: { buyerName: 'Office Manager', buyerEmail: 'office@example.org', buyerCompany: 'Northwind AS' },
    });
    expect(await order(res.body.orderId)).toMatchObject({
      buyerName: 'Office Manager',
      buyerEmail: 'office@example.org',
      buyerCompany: 'Northwind AS',
    });
  });

  it('allows hidden and code-only ticket types', async () => {
    const hidden = ids.ticketType('summit', 'speaker');
    const code = ids.ticketType('summit', 'partner');
    const res = await register(t, writer, summit, [person(hidden), person(code)]);
    expect(res.status).toBe(201);
    expect(res.body.attendees.map((a: any) => a.ticketTypeName)).toEqual(['Speaker', 'Partner']);
  });

  it('does not require registration questions, even one the form requires', async () => {
    const questions = (await t.api(`/events/${summit}/questions`, { key: everything })).body.data;
    expect(questions.some((q: any) => q.required)).toBe(true);
    const res = await register(t, writer, summit, [person(standard)]);
    expect(res.status).toBe(201);
    expect(res.body.attendees[0].answers).toBeNull();
  });

  it('keeps answers that fit their questions', async () => {
    const answers = {
      [ids.question('summit', 'diet')]: 'vegan',
      [ids.question('summit', 'newsletter')]: true,
      [ids.question('summit', 'badge')]: 'Ada',
    };
    const res = await register(t, writer, summit, [person(standard, { answers })]);
    expect(res.status).toBe(201);
    expect(res.body.attendees[0].answers).toEqual(answers);
  });
});

describe('refused registrations', () => {
  it('refuses no attendees with 400 empty', async () => {
    expectProblem(await register(t, writer, summit, []), 400, 'empty');
    const none = await t.api(`/events/${summit}/attendees`, { key: writer, method: 'POST', body: {} });
    expectProblem(none, 400, 'empty');
  });

  it('takes 50 attendees and refuses 51 with 400 tooMany', async () => {
    const made = await t.api('/events', { key: everything, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId;
    const type = await addTicketType(t, eventId, { maxPerOrder: 100 });
    const fifty = Array.from({ length: 50 }, () => person(type));
    const ok = await register(t, writer, eventId, fifty);
    expect(ok.status).toBe(201);
    expect(ok.body.attendees).toHaveLength(50);
    expectProblem(await register(t, writer, eventId, [...fifty, person(type)]), 400, 'tooMany');
    expect(await countRows(t, 'orders', eventId)).toBe(1);
    expect(await countRows(t, 'attendees', eventId)).toBe(50);
  });

  it('refuses a ticket type that is not the event’s with 400 unknownTicket', async () => {
    const unknown = '00000000-0000-4000-8000-000000000060';
    const res = await register(t, writer, summit, [person(standard), person(unknown)]);
    expect(expectProblem(res, 400, 'unknownTicket').ticketTypeId).toBe(unknown);
    const otherEvent = await register(t, writer, summit, [person(ids.ticketType('meetup', 'general'))]);
    expectProblem(otherEvent, 400, 'unknownTicket');
  });

  it('refuses wrong details with 400 invalid naming attendee, field and code (required, tooLong, notEmail)', async () => {
    const res = await register(t, writer, summit, [
      person(standard),
      { ...person(standard), firstName: undefined, email: 'not-an-address' },
      { ...person(standard), lastName: 'x'.repeat(101), company: 'y'.repeat(201) },
      { ticketTypeId: standard, firstName: '  ', lastName: 'Blank', email: 'blank@example.org' },
    ]);
    const body = expectProblem(res, 400, 'invalid');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { attendee: 1, field: 'firstName', code: 'required' },
        { attendee: 1, field: 'email', code: 'notEmail' },
        { attendee: 2, field: 'lastName', code: 'tooLong' },
        { attendee: 2, field: 'company', code: 'tooLong' },
        { attendee: 3, field: 'firstName', code: 'required' },
      ]),
    );
    expect(body.errors).toHaveLength(5);
    expect(body.errors.some((e: any) => e.attendee === 0)).toBe(false);
  });

  it('refuses an answer outside the options (notOption) and a text too long (tooLong) with 400 invalid', async () => {
    const res = await register(t, writer, summit, [
      person(standard, { answers: { [ids.question('summit', 'diet')]: 'pizza' } }),
      person(standard, { answers: { [ids.question('summit', 'badge')]: 'A'.repeat(41) } }),
      person(standard, { answers: { '00000000-0000-4000-8000-000000000061': 'x' } }),
    ]);
    const body = expectProblem(res, 400, 'invalid');
    expect(body.errors).toEqual([
      { attendee: 0, field: `answers.${ids.question('summit', 'diet')}`, code: 'notOption' },
      { attendee: 1, field: `answers.${ids.question('summit', 'badge')}`, code: 'tooLong' },
      { attendee: 2, field: 'answers.00000000-0000-4000-8000-000000000061', code: 'notOption' },
    ]);
  });

  it('refuses answers keyed __proto__ or constructor like any other key that is no question (notOption)', async () => {
    // JSON.parse makes __proto__ an own key, as a body parser does; a plain object literal would not.
    const answers = JSON.parse('{"__proto__": "x", "constructor": "y"}');
    const res = await register(t, writer, summit, [person(standard, { answers })]);
    const body = expectProblem(res, 400, 'invalid');
    expect(body.errors).toEqual([
      { attendee: 0, field: 'answers.__proto__', code: 'notOption' },
      { attendee: 0, field: 'answers.constructor', code: 'notOption' },
    ]);
  });

  it('refuses more of one type than fit in one order with 400 registrationRefused, reason maxPerOrder', async () => {
    const vip = ids.ticketType('summit', 'vip');
    const before = (await t.api(`/events/${summit}/ticket-types/${vip}`, { key: everything })).body;
    expect(before.maxPerOrder).toBe(2);
    const res = await register(t, writer, summit, [person(vip), person(vip), person(vip)]);
    const body = expectProblem(res, 400, 'registrationRefused');
    expect(body.reason).toBe('maxPerOrder');
    expect(body.ticketTypeId).toBe(vip);
    expect((await t.api(`/events/${summit}/ticket-types/${vip}`, { key: everything })).body.taken).toBe(
      before.taken,
    );
  });

  it('refuses an event that is over with 400 registrationRefused', async () => {
    const past = ids.event('past');
    const attendeesBefore = await countRows(t, 'attendees', past);
    const res = await register(t, writer, past, [person(ids.ticketType('past', 'day'))]);
    expect(expectProblem(res, 400, 'registrationRefused').reason).toEqual(expect.any(String));
    expect(await countRows(t, 'attendees', past)).toBe(attendeesBefore);
  });

  it('answers 404 eventNotFound for an unknown event and 403 missingScope without attendees:write', async () => {
    expectProblem(
      await register(t, writer, '00000000-0000-4000-8000-000000000062', [person(standard)]),
      404,
      'eventNotFound',
    );
    const { key } = await t.key({ workspaceId, scopes: ['attendees:read', 'people:read'] });
    expect(expectProblem(await register(t, key, summit, [person(standard)]), 403, 'missingScope').scope).toBe(
      'attendees:write',
    );
  });

  it('refuses the demonstration workspace with 403 demoWorkspace', async () => {
    const demo = t.server.demoKey;
    const eventId = (await t.api('/events?status=published', { key: demo })).body.data[0].eventId;
    const type = (await t.api(`/events/${eventId}/ticket-types`, { key: demo })).body.data[0].ticketTypeId;
    expectProblem(await register(t, demo, eventId, [person(type)]), 403, 'demoWorkspace');
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry after a success with the same orderId and makes nothing new', async () => {
    const people = [person(standard), person(standard)];
    const headers = { 'idempotency-key': `registration-${Date.now()}` };
    const first = await register(t, writer, summit, people, { headers });
    expect(first.status).toBe(201);
    const orders = await countRows(t, 'orders', summit);
    const attendees = await countRows(t, 'attendees', summit);
    const messages = (await outbox(t, workspaceId)).length;
    const taken = (await t.api(`/events/${summit}/ticket-types/${standard}`, { key: everything })).body.taken;

    const again = await register(t, writer, summit, people, { headers });
    expect(again.status).toBe(201);
    expect(again.body.orderId).toBe(first.body.orderId);
    expect(again.body).toEqual(first.body);
    expect(await countRows(t, 'orders', summit)).toBe(orders);
    expect(await countRows(t, 'attendees', summit)).toBe(attendees);
    expect((await outbox(t, workspaceId)).length).toBe(messages);
    expect((await t.api(`/events/${summit}/ticket-types/${standard}`, { key: everything })).body.taken).toBe(
      taken,
    );
  });

  it('refuses the same key with another body with 422 idempotencyKeyReused', async () => {
    const headers = { 'idempotency-key': `reused-${Date.now()}` };
    expect((await register(t, writer, summit, [person(standard)], { headers })).status).toBe(201);
    expectProblem(
      await register(t, writer, summit, [person(standard)], { headers }),
      422,
      'idempotencyKeyReused',
    );
  });
});

describe('capacity under concurrency', () => {
  it('lets exactly 5 of 30 parallel registrations through for a type with 5 places; the rest are soldOut', async () => {
    const made = await t.api('/events', { key: everything, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId;
    const type = await addTicketType(t, eventId, { name: 'Five places' });
    const patched = await t.api(`/events/${eventId}/ticket-types/${type}`, {
      key: everything,
      method: 'PATCH',
      body: { capacity: 5 },
    });
    expect(patched.body).toMatchObject({ capacity: 5, taken: 0 });

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => register(t, writer, eventId, [person(type)])),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 201))
      expect(expectProblem(refused, 400, 'soldOut').ticketTypeId).toBe(type);
    const after = (await t.api(`/events/${eventId}/ticket-types/${type}`, { key: everything })).body;
    expect(after).toMatchObject({ capacity: 5, taken: 5, remaining: 0 });
    expect(await countRows(t, 'attendees', eventId)).toBe(5);
    expect(await countRows(t, 'orders', eventId)).toBe(5);
  });

  it('refuses a request asking for more places than are left as a whole, registering nobody', async () => {
    const made = await t.api('/events', { key: everything, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId;
    const type = await addTicketType(t, eventId, { capacity: 3 });
    const res = await register(t, writer, eventId, [person(type), person(type), person(type), person(type)]);
    expect(expectProblem(res, 400, 'soldOut').ticketTypeId).toBe(type);
    expect(await countRows(t, 'attendees', eventId)).toBe(0);
    expect((await register(t, writer, eventId, [person(type), person(type), person(type)])).status).toBe(201);
  });
});

describe('cursor paging while people register', () => {
  it('walks 1,000+ attendees with cursors while new ones register, seeing each exactly once', async () => {
    const made = await t.api('/events', { key: everything, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId;
    const type = await addTicketType(t, eventId);
    const batch = () =>
      register(
        t,
        writer,
        eventId,
        Array.from({ length: 50 }, () => person(type)),
      );
    for (let i = 0; i < 21; i++) expect((await batch()).status).toBe(201);
    const atStart = (
      await t.server.services.db
        .selectFrom('attendees')
        .select('id')
        .where('event_id', '=', eventId)
        .execute()
    ).map((r) => r.id);
    expect(atStart.length).toBe(1050);

    for (const sort of ['changed', '-created']) {
      const added: string[] = [];
      const { items, pages } = await walkPages(
        t,
        everything,
        `/events/${eventId}/attendees?sort=${sort}&limit=200`,
        async (page) => {
          if (page <= 3) {
            const res = await batch();
            expect(res.status).toBe(201);
            added.push(...res.body.attendees.map((a: any) => a.attendeeId));
          }
        },
      );
      const seen = items.map((a) => a.attendeeId);
      expect(new Set(seen).size, `${sort}: no repeats`).toBe(seen.length);
      const seenSet = new Set(seen);
      for (const id of atStart) expect(seenSet.has(id), `${sort}: ${id} seen`).toBe(true);
      // Nothing else than what existed or was added while walking.
      const known = new Set([...atStart, ...added]);
      for (const id of seen) expect(known.has(id)).toBe(true);
      expect(pages).toBeGreaterThanOrEqual(6);
      atStart.push(...added);
    }
  });
});
