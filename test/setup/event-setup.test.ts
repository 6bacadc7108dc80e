// Setting up an event without leaving the API (documented extensions, marked
// x-tessera-extension): ticket types and add-ons (tickets:write), doors (events:write), rooms,
// tracks and speakers (program:write). An assistant can set up a meetup from nothing through MCP
// alone and check an attendee in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Set-up'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const post = (path: string, body: unknown, as = key, headers: Record<string, string> = {}) =>
  t.api(path, { key: as, method: 'POST', body, headers });
const patch = (path: string, body: unknown, as = key) => t.api(path, { key: as, method: 'PATCH', body });

async function newEvent(extra: Record<string, unknown> = {}): Promise<string> {
  const made = await post('/events', eventBody(extra));
  expect(made.status).toBe(201);
  return made.body.eventId;
}

describe('an assistant setting up a meetup through MCP alone', () => {
  it('creates the event, 50 free tickets and an entrance, publishes it, registers someone and checks them in', async () => {
    const client = await t.mcp(key);
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await client.callTool({ name, arguments: args });
      expect(res.isError, `${name}: ${JSON.stringify(res.content)}`).toBeFalsy();
      return res.structuredContent as any;
    };
    const event = await call('create_event', {
      name: 'Frontend meetup, March',
      timeZone: 'Europe/Oslo',
      currency: 'NOK',
      startsLocal: '2027-03-11T18:00',
      endsLocal: '2027-03-11T21:00',
      venue: { name: 'Kode Hub', city: 'Oslo', country: 'NO' },
    });
    const tickets = await call('create_ticket_type', {
      eventId: event.eventId,
      name: 'Free ticket',
      capacity: 50,
    });
    expect(tickets).toMatchObject({ price: 0, capacity: 50, taken: 0, remaining: 50, visibility: 'public' });
    const door = await call('create_door', { eventId: event.eventId, name: 'Front door' });
    expect(door).toMatchObject({ kind: 'entrance', main: true, reentry: true });
    expect((await call('set_event_status', { eventId: event.eventId, status: 'published' })).status).toBe(
      'published',
    );
    const order = await call('register_attendees', {
      eventId: event.eventId,
      attendees: [
        {
          ticketTypeId: tickets.ticketTypeId,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.org',
        },
      ],
    });
    const scan = await call('check_in_attendee', {
      eventId: event.eventId,
      attendeeId: order.attendees[0].attendeeId,
    });
    expect(scan).toMatchObject({ result: 'welcome', admitted: true, door: { doorId: door.doorId } });
    const left = await call('get_ticket_type', {
      eventId: event.eventId,
      ticketTypeId: tickets.ticketTypeId,
    });
    expect(left.remaining).toBe(49);
    await client.close();
  });
});

describe('POST /events/{eventId}/ticket-types', () => {
  it('adds a ticket type with everything set, the add-ons it includes and a window in venue time', async () => {
    const eventId = await newEvent();
    const addOn = await post(`/events/${eventId}/add-ons`, {
      name: 'Dinner',
      price: 450,
      vatRate: 15,
      capacity: 40,
    });
    expect(addOn.status).toBe(201);
    expect(addOn.body).toMatchObject({
      name: 'Dinner',
      price: 450,
      vatRate: 15,
      capacity: 40,
      taken: 0,
      currency: 'EUR',
    });
    const res = await post(
      `/events/${eventId}/ticket-types`,
      {
        name: 'VIP',
        description: 'Front row and dinner.',
        price: 1299.5,
        vatRate: 12,
        capacity: 20,
        maxPerOrder: 2,
        visibility: 'code',
        accessCode: 'FRONTROW',
        requiresApproval: true,
        salesStartLocal: '2027-01-01T09:00',
        salesEndUtc: '2027-04-30T22:00:00Z',
        includedAddOnIds: [addOn.body.addOnId],
      },
      key,
      { 'idempotency-key': 'vip-1' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'VIP',
      price: 1299.5,
      vatRate: 12,
      capacity: 20,
      taken: 0,
      remaining: 20,
      maxPerOrder: 2,
      visibility: 'code',
      requiresApproval: true,
      salesStartUtc: '2027-01-01T08:00:00.000Z',
      salesStartLocal: '2027-01-01T09:00',
      salesEndUtc: '2027-04-30T22:00:00.000Z',
      includedAddOnIds: [addOn.body.addOnId],
    });
    expect(JSON.stringify(res.body)).not.toContain('FRONTROW');
    const again = await post(`/events/${eventId}/ticket-types`, { name: 'x' }, key, {
      'idempotency-key': 'vip-1',
    });
    expectProblem(again, 422, 'idempotencyKeyReused');
    const listed = (await t.api(`/events/${eventId}/ticket-types`, { key })).body.data;
    expect(listed.map((x: any) => x.name)).toEqual(['VIP']);
  });

  it('refuses what does not fit, listing every field: decimals, access codes, add-ons of other events', async () => {
    const eventId = await newEvent({ currency: 'JPY' });
    const res = await post(`/events/${eventId}/ticket-types`, {
      name: ' ',
      price: 1500.5,
      visibility: 'public',
      accessCode: 'NOPE',
      includedAddOnIds: [crypto.randomUUID()],
    });
    const fields = expectProblem(res, 400, 'invalidRequest')
      .errors.map((e: any) => e.field)
      .sort();
    expect(fields).toEqual(['accessCode', 'name']);
    const second = await post(`/events/${eventId}/ticket-types`, {
      name: 'Yen',
      price: 1500.5,
      includedAddOnIds: [crypto.randomUUID()],
    });
    expect(
      expectProblem(second, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['includedAddOnIds.0', 'price']);
    const code = await post(`/events/${eventId}/ticket-types`, { name: 'Coded', visibility: 'code' });
    expect(expectProblem(code, 400, 'invalidRequest').errors[0].field).toBe('accessCode');
  });

  it('answers 409 endsCommunity for a first paid ticket type of a free event above the free limit', async () => {
    const eventId = await newEvent();
    const free = (await post(`/events/${eventId}/ticket-types`, { name: 'Free', maxPerOrder: 50 })).body
      .ticketTypeId;
    for (let i = 0; i < 2; i++) {
      const batch = Array.from({ length: 26 }, () => person(free));
      expect((await register(t, key, eventId, batch, { body: {} })).status).toBe(201);
    }
    const paid = await post(`/events/${eventId}/ticket-types`, { name: 'Supporter', price: 100 });
    expectProblem(paid, 409, 'endsCommunity');
    // A crew ticket does not make the event paid; below the limit a paid type is fine.
    expect(
      (await post(`/events/${eventId}/ticket-types`, { name: 'Crew', price: 100, crew: true })).status,
    ).toBe(201);
    const small = await newEvent();
    expect((await post(`/events/${small}/ticket-types`, { name: 'Supporter', price: 100 })).status).toBe(201);
  });

  it('needs tickets:write, and is refused in the demonstration workspace', async () => {
    const eventId = await newEvent();
    const reader = await t.key({ workspaceId, scopes: ['tickets:read', 'events:write'] });
    const res = await post(`/events/${eventId}/ticket-types`, { name: 'x' }, reader.key);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('tickets:write');
    const demoEvent = (await t.api('/events?limit=1', { key: demoKey.key })).body.data[0].eventId;
    expectProblem(
      await post(`/events/${demoEvent}/ticket-types`, { name: 'x' }, demoKey.key),
      403,
      'demoWorkspace',
    );
  });
});

describe('doors', () => {
  it('makes the first entrance the main one, and main true moves the mark', async () => {
    const eventId = await newEvent();
    const first = (await post(`/events/${eventId}/doors`, { name: 'North gate' })).body;
    const second = (await post(`/events/${eventId}/doors`, { name: 'South gate' })).body;
    expect([first.main, second.main]).toEqual([true, false]);
    const moved = await patch(`/events/${eventId}/doors/${second.doorId}`, { main: true });
    expect(moved.body.main).toBe(true);
    const doors = (await t.api(`/events/${eventId}/doors`, { key })).body.data;
    expect(doors.filter((d: any) => d.main).map((d: any) => d.doorId)).toEqual([second.doorId]);
  });

  it('makes session doors and areas with what they admit, and refuses what is not the event’s', async () => {
    const eventId = await newEvent();
    const type = (await post(`/events/${eventId}/ticket-types`, { name: 'Workshop ticket' })).body
      .ticketTypeId;
    const session = await post(`/events/${eventId}/sessions`, {
      title: 'Workshop',
      startsLocal: '2027-05-01T10:00',
      endsLocal: '2027-05-01T11:00',
    });
    const door = await post(`/events/${eventId}/doors`, {
      name: 'Workshop room',
      kind: 'session',
      sessionId: session.body.sessionId,
      capacity: 12,
      reentry: false,
      ticketTypeIds: [type],
    });
    expect(door.status).toBe(201);
    expect(door.body).toMatchObject({
      kind: 'session',
      main: false,
      capacity: 12,
      reentry: false,
      ticketTypeIds: [type],
    });
    const wrong = await post(`/events/${eventId}/doors`, {
      name: 'Lounge',
      kind: 'area',
      main: true,
      sessionId: session.body.sessionId,
    });
    expect(
      expectProblem(wrong, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['main', 'sessionId']);
    const strange = await post(`/events/${eventId}/doors`, {
      name: 'Lounge',
      kind: 'area',
      addOnIds: [crypto.randomUUID()],
    });
    expect(expectProblem(strange, 400, 'invalidRequest').errors[0].field).toBe('addOnIds.0');
  });

  it('counts everyone inside a door without a capacity when one is set, and keeps to it', async () => {
    const eventId = await newEvent();
    const type = (await post(`/events/${eventId}/ticket-types`, { name: 'General' })).body.ticketTypeId;
    const door = (await post(`/events/${eventId}/doors`, { name: 'Open gate' })).body;
    const people = (
      await register(t, key, eventId, [person(type), person(type), person(type), person(type)])
    ).body.attendees.map((a: { attendeeId: string }) => a.attendeeId);
    const scan = (attendeeId: string, direction = 'in') =>
      post(`/events/${eventId}/attendees/${attendeeId}/check-in`, { doorId: door.doorId, direction });
    for (const id of people.slice(0, 3)) expect((await scan(id)).body.result).toBe('welcome');
    expect((await scan(people[0], 'out')).body.result).toBe('out');
    expect((await scan(people[0])).body.result).toBe('again');
    const res = await patch(`/events/${eventId}/doors/${door.doorId}`, { capacity: 2 });
    expect(expectProblem(res, 409, 'capacityBelowTaken').taken).toBe(3);
    expect((await patch(`/events/${eventId}/doors/${door.doorId}`, { capacity: 3 })).body.capacity).toBe(3);
    expect((await scan(people[3])).body.result).toBe('full');
    expect((await scan(people[1], 'out')).body.result).toBe('out');
    expect((await patch(`/events/${eventId}/doors/${door.doorId}`, { capacity: null })).body.capacity).toBe(
      null,
    );
    expect((await scan(people[3])).body.result).toBe('welcome');
    const summary = (await t.api(`/events/${eventId}/check-ins/summary`, { key })).body;
    expect(summary.doors.find((d: { doorId: string }) => d.doorId === door.doorId).inside).toBe(3);
  });

  it('refuses a capacity below the people inside with 409 capacityBelowTaken naming taken', async () => {
    const eventId = await newEvent();
    const type = (await post(`/events/${eventId}/ticket-types`, { name: 'General' })).body.ticketTypeId;
    const door = (await post(`/events/${eventId}/doors`, { name: 'Gate', capacity: 10 })).body;
    const people = (await register(t, key, eventId, [person(type), person(type), person(type)])).body
      .attendees;
    for (const a of people) {
      expect((await post(`/events/${eventId}/attendees/${a.attendeeId}/check-in`, {})).body.result).toBe(
        'welcome',
      );
    }
    const res = await patch(`/events/${eventId}/doors/${door.doorId}`, { capacity: 2 });
    expect(expectProblem(res, 409, 'capacityBelowTaken').taken).toBe(3);
    expect(
      (await patch(`/events/${eventId}/doors/${door.doorId}`, { capacity: 3, name: 'Main gate' })).body,
    ).toMatchObject({
      capacity: 3,
      name: 'Main gate',
    });
    expectProblem(
      await patch(`/events/${eventId}/doors/${crypto.randomUUID()}`, { name: 'x' }),
      404,
      'noDoor',
    );
  });

  it('are refused for an online event with 409 onlineEvent, and need events:write', async () => {
    const online = await newEvent({ online: true, venue: undefined });
    expectProblem(await post(`/events/${online}/doors`, { name: 'Gate' }), 409, 'onlineEvent');
    const eventId = await newEvent();
    const reader = await t.key({ workspaceId, scopes: ['events:read', 'checkins:write'] });
    expect(
      expectProblem(await post(`/events/${eventId}/doors`, { name: 'Gate' }, reader.key), 403, 'missingScope')
        .scope,
    ).toBe('events:write');
  });
});

describe('rooms, tracks and speakers', () => {
  it('adds and changes them, and sessions can use them at once', async () => {
    const eventId = await newEvent();
    const room = (
      await post(`/events/${eventId}/rooms`, { name: 'Hall A', capacity: 200, location: 'Ground floor' })
    ).body;
    const track = (await post(`/events/${eventId}/tracks`, { name: 'Design', colour: '#AA3377' })).body;
    const speaker = await post(`/events/${eventId}/speakers`, {
      name: 'Grace Hopper',
      email: 'Grace@Example.org',
      company: 'Navy',
      bio: 'Compilers.',
      photoUrl: 'https://example.org/grace.jpg',
    });
    expect(speaker.status).toBe(201);
    expect(speaker.body).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.org', sessionIds: [] });
    expect(track.colour).toBe('#aa3377');
    const session = await post(`/events/${eventId}/sessions`, {
      title: 'Opening',
      startsLocal: '2027-05-01T09:00',
      endsLocal: '2027-05-01T10:00',
      roomId: room.roomId,
      trackId: track.trackId,
      speakerIds: [speaker.body.speakerId],
      capacity: 150,
    });
    expect(session.status).toBe(201);
    const smaller = await patch(`/events/${eventId}/rooms/${room.roomId}`, { capacity: 100 });
    expect(expectProblem(smaller, 400, 'invalidRequest').errors[0].field).toBe('capacity');
    expect(
      (await patch(`/events/${eventId}/rooms/${room.roomId}`, { name: 'Hall A1', location: null })).body,
    ).toMatchObject({
      name: 'Hall A1',
      location: null,
      capacity: 200,
    });
    expect(
      (await patch(`/events/${eventId}/tracks/${track.trackId}`, { description: 'Pixels.' })).body
        .description,
    ).toBe('Pixels.');
    const changed = await patch(`/events/${eventId}/speakers/${speaker.body.speakerId}`, {
      jobTitle: 'Rear admiral',
    });
    expect(changed.body).toMatchObject({ jobTitle: 'Rear admiral', sessionIds: [session.body.sessionId] });
    expectProblem(
      await patch(`/events/${eventId}/tracks/${crypto.randomUUID()}`, { name: 'x' }),
      404,
      'notFound',
    );
  });

  it('withholds a speaker’s email without people:read, and need program:write', async () => {
    const eventId = await newEvent();
    const writer = await t.key({ workspaceId, scopes: ['program:write'] });
    const made = await post(
      `/events/${eventId}/speakers`,
      { name: 'Ada', email: 'ada@example.org' },
      writer.key,
    );
    expect(made.body).toMatchObject({ name: 'Ada', email: null, personalData: 'withheld' });
    const reader = await t.key({ workspaceId, scopes: ['program:read'] });
    expect(
      expectProblem(await post(`/events/${eventId}/rooms`, { name: 'x' }, reader.key), 403, 'missingScope')
        .scope,
    ).toBe('program:write');
  });

  it('are refused with 409 moduleOff when the programme module is off', async () => {
    const eventId = await newEvent({ modules: { program: false } });
    for (const path of ['rooms', 'tracks', 'speakers']) {
      expect(
        expectProblem(await post(`/events/${eventId}/${path}`, { name: 'x' }), 409, 'moduleOff').module,
      ).toBe('program');
    }
  });
});

describe('the OpenAPI document', () => {
  it('marks every operation outside the published contract as x-tessera-extension', async () => {
    const doc = (await t.api('//api/v1/openapi.json')).body;
    const extensions = Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.entries<any>(ops)
        .filter(([, op]) => op['x-tessera-extension'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(extensions.sort()).toEqual(
      [
        'POST /events/{eventId}/ticket-types',
        'POST /events/{eventId}/add-ons',
        'POST /events/{eventId}/doors',
        'PATCH /events/{eventId}/doors/{doorId}',
        'POST /events/{eventId}/rooms',
        'PATCH /events/{eventId}/rooms/{roomId}',
        'POST /events/{eventId}/tracks',
        'PATCH /events/{eventId}/tracks/{trackId}',
        'POST /events/{eventId}/speakers',
        'PATCH /events/{eventId}/speakers/{speakerId}',
        'POST /events/{eventId}/check-ins/offline',
        'PATCH /events/{eventId}/attendees/{attendeeId}',
        // Issue 27: the event's e-mail log and resending a ticket.
        'GET /events/{eventId}/emails',
        'GET /events/{eventId}/emails/{emailId}',
        'POST /events/{eventId}/attendees/{attendeeId}/resend-ticket',
        // Issue 25: running sponsors, crew, surveys, communities and the share kit.
        'POST /events/{eventId}/sponsor-levels',
        'PATCH /events/{eventId}/sponsor-levels/{levelId}',
        'DELETE /events/{eventId}/sponsor-levels/{levelId}',
        'GET /events/{eventId}/certificates',
        'POST /events/{eventId}/certificates',
        'POST /events/{eventId}/certificates/attendance',
        'DELETE /events/{eventId}/certificates/{certificateId}',
        'GET /events/{eventId}/budget-lines',
        'POST /events/{eventId}/budget-lines',
        'PATCH /events/{eventId}/budget-lines/{lineId}',
        'DELETE /events/{eventId}/budget-lines/{lineId}',
        'GET /events/{eventId}/content',
        'POST /events/{eventId}/content',
        'PATCH /events/{eventId}/content/{contentId}',
        'DELETE /events/{eventId}/content/{contentId}',
        'POST /events/{eventId}/sponsors',
        'PATCH /events/{eventId}/sponsors/{sponsorId}',
        'DELETE /events/{eventId}/sponsors/{sponsorId}',
        'GET /events/{eventId}/sponsors/{sponsorId}/leads',
        // Issue 28: an event's data exported as a file.
        'GET /events/{eventId}/exports/{dataset}',
        'POST /events/{eventId}/leads',
        'PATCH /events/{eventId}/leads/{leadId}',
        'DELETE /events/{eventId}/leads/{leadId}',
        'POST /events/{eventId}/crew',
        'PATCH /events/{eventId}/crew/{crewMemberId}',
        'DELETE /events/{eventId}/crew/{crewMemberId}',
        'POST /events/{eventId}/shifts',
        'PATCH /events/{eventId}/shifts/{shiftId}',
        'DELETE /events/{eventId}/shifts/{shiftId}',
        'POST /events/{eventId}/shifts/{shiftId}/crew',
        'DELETE /events/{eventId}/shifts/{shiftId}/crew/{crewMemberId}',
        'POST /events/{eventId}/surveys',
        'PATCH /events/{eventId}/surveys/{surveyId}',
        'DELETE /events/{eventId}/surveys/{surveyId}',
        'POST /events/{eventId}/surveys/{surveyId}/answers',
        'POST /events/{eventId}/sessions/{sessionId}/ratings',
        'POST /communities',
        'POST /people/erasure',
        'PATCH /communities/{communityId}',
        'PUT /communities/{communityId}/status',
        'POST /communities/{communityId}/members',
        'POST /communities/{communityId}/members/{memberId}/approve',
        'POST /communities/{communityId}/members/{memberId}/decline',
        'POST /communities/{communityId}/members/{memberId}/leave',
        'PUT /events/{eventId}/community',
        'POST /events/{eventId}/share-links',
        'GET /events/{eventId}/share-links',
        'DELETE /events/{eventId}/share-links/{linkId}',
        // Issue 26: speakers' and crew's stays, journeys and expense claims.
        'GET /events/{eventId}/stays',
        'POST /events/{eventId}/stays',
        'GET /events/{eventId}/stays/{stayId}',
        'PATCH /events/{eventId}/stays/{stayId}',
        'DELETE /events/{eventId}/stays/{stayId}',
        'POST /events/{eventId}/stays/{stayId}/assign',
        'POST /events/{eventId}/stays/{stayId}/cancel',
        'GET /events/{eventId}/travel',
        'POST /events/{eventId}/travel',
        'GET /events/{eventId}/travel/{travelId}',
        'PATCH /events/{eventId}/travel/{travelId}',
        'DELETE /events/{eventId}/travel/{travelId}',
        'POST /events/{eventId}/travel/{travelId}/cancel',
        'GET /events/{eventId}/expense-claims',
        'POST /events/{eventId}/expense-claims',
        'GET /events/{eventId}/expense-claims/{claimId}',
        'POST /events/{eventId}/expense-claims/{claimId}/approve',
        'POST /events/{eventId}/expense-claims/{claimId}/decline',
        'POST /events/{eventId}/expense-claims/{claimId}/pay',
        // Issue 26: the call for speakers, whole.
        'GET /events/{eventId}/call-for-speakers',
        'PATCH /events/{eventId}/call-for-speakers',
        'POST /events/{eventId}/submissions',
        'PATCH /events/{eventId}/submissions/{submissionId}',
        'POST /events/{eventId}/submissions/{submissionId}/withdraw',
        'PUT /events/{eventId}/submissions/{submissionId}/status',
        'PUT /events/{eventId}/submissions/{submissionId}/review',
        'GET /events/{eventId}/submissions/{submissionId}/reviews',
        // Issue 26: paid orders, refunds and invoicing.
        'POST /events/{eventId}/orders/{orderId}/mark-paid',
        'POST /events/{eventId}/orders/{orderId}/refund',
        // Issue 52: approving or declining an order that waits for approval.
        'POST /events/{eventId}/orders/{orderId}/approve',
        'POST /events/{eventId}/orders/{orderId}/decline',
        // Issue 52: invoices as PDF and sent by e-mail; the workspace's Stripe connection.
        'GET /events/{eventId}/invoices/{invoiceId}/pdf',
        'POST /events/{eventId}/invoices/{invoiceId}/send',
        'GET /payments/stripe',
        'PUT /payments/stripe',
        'DELETE /payments/stripe',
        'GET /events/{eventId}/invoicing',
        'PATCH /events/{eventId}/invoicing',
        // Issue 27: sign-up settings and orders awaiting transfer.
        'GET /events/{eventId}/sign-up',
        'PATCH /events/{eventId}/sign-up',
        'POST /events/{eventId}/orders',
        // Issue 26: removing what was made.
        'DELETE /events/{eventId}',
        'DELETE /events/{eventId}/ticket-types/{ticketTypeId}',
        'DELETE /events/{eventId}/add-ons/{addOnId}',
        'PATCH /events/{eventId}/discount-codes/{discountCodeId}',
        'DELETE /events/{eventId}/discount-codes/{discountCodeId}',
        'DELETE /events/{eventId}/doors/{doorId}',
        'DELETE /events/{eventId}/rooms/{roomId}',
        'DELETE /events/{eventId}/tracks/{trackId}',
        'DELETE /events/{eventId}/speakers/{speakerId}',
        'DELETE /events/{eventId}/sessions/{sessionId}',
        'DELETE /communities/{communityId}',
        // Issue 27: tickets scanned by their code, and the door scanner's list.
        'POST /events/{eventId}/check-ins/by-code',
        'GET /events/{eventId}/check-ins/scan-list',
        // Issue 52: waiting lists.
        'GET /events/{eventId}/waiting-list',
        'POST /events/{eventId}/waiting-list',
        'POST /events/{eventId}/waiting-list/{waitingListEntryId}/offer',
        'DELETE /events/{eventId}/waiting-list/{waitingListEntryId}',
      ].sort(),
    );
  });
});
