// Speakers' and crew's stays and journeys run through the real HTTPS server (issue 26, item 3):
// a stay requested for a speaker, a crew member or an attendee (names and email copied from them),
// assigned, changed, cancelled and removed, each move sending its stay.* message and a move its
// status does not allow answering 409 statusNotAllowed naming the status; a journey booked,
// changed, cancelled (kept, status cancelled) and removed, each sending travel.changed; the API's
// rules (reads with attendees:read, writes with logistics:write, strict bodies naming each field,
// Idempotency-Key, ETag and 412 on a stale If-Match, paging and updatedSince, demoWorkspace, the
// personal-data rule) and erasure reaching a stay or journey through its speaker or crew link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, outbox, person, register, sampleIds } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let organiser: string;
let writer: string;
let reader: string;
let financeOnly: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Logistics writes', true));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['logistics:write'], expires: 'never' }));
  ({ key: reader } = await t.key({
    workspaceId,
    scopes: ['attendees:read', 'people:read'],
    expires: 'never',
  }));
  ({ key: financeOnly } = await t.key({ workspaceId, scopes: ['finance:read'], expires: 'never' }));
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown, status = 201, key = organiser) {
  const res = await t.api(path, { key, method: 'POST', body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

const newEvent = async (): Promise<string> => (await post('/events', eventBody())).eventId;
const speaker = (eventId: string, name: string, email: string) =>
  post(`/events/${eventId}/speakers`, { name, email });
const crewMember = (eventId: string, name: string, email: string) =>
  post(`/events/${eventId}/crew`, { name, email });
const nights = { checkInDate: '2027-04-30', checkOutDate: '2027-05-02' };
const journey = {
  mode: 'train',
  from: 'Bergen',
  to: 'Oslo S',
  departsUtc: '2027-04-30T06:00:00Z',
  arrivesUtc: '2027-04-30T13:00:00Z',
  reference: 'NSB-4711',
};

/** The stay.* and travel.changed messages of an event, as type and the resource's status. */
async function messages(eventId: string) {
  return (await outbox(t, workspaceId))
    .filter((m) => m.eventId === eventId && (m.type.startsWith('stay.') || m.type === 'travel.changed'))
    .map((m) => [m.type, (m.payload.data.stay ?? m.payload.data.travel).status]);
}

describe('stays', () => {
  it('requests a stay for a speaker (201, ETag): names and email copied, shown only with people:read', async () => {
    const eventId = await newEvent();
    const ada = await speaker(eventId, 'Ada King Lovelace', 'ada@example.org');
    const res = await t.api(`/events/${eventId}/stays`, {
      key: organiser,
      method: 'POST',
      body: { speakerId: ada.speakerId, ...nights },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.body).toMatchObject({
      speakerId: ada.speakerId,
      crewMemberId: null,
      attendeeId: null,
      firstName: 'Ada',
      lastName: 'King Lovelace',
      email: 'ada@example.org',
      status: 'requested',
      hotel: null,
      ...nights,
      personalData: 'included',
    });
    const one = await t.api(`/events/${eventId}/stays/${res.body.stayId}`, { key: reader });
    expect(one.body).toEqual(res.body);
    expect(one.headers.get('etag')).toBe(res.headers.get('etag'));
    // The writer (logistics:write reads as attendees:read) sees it without the personal fields.
    const bare = await t.api(`/events/${eventId}/stays`, { key: writer });
    expect(bare.body.data).toEqual([
      { ...res.body, firstName: null, lastName: null, email: null, personalData: 'withheld' },
    ]);
    expect(await messages(eventId)).toEqual([['stay.requested', 'requested']]);
  });

  it('requests stays for a crew member, an attendee and someone only named; given names win', async () => {
    const eventId = await newEvent();
    const bo = await crewMember(eventId, 'Bo', 'bo@example.org');
    const ticketTypeId = await addTicketType(t, eventId);
    const registered = await register(t, organiser, eventId, [person(ticketTypeId)]);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const guest = registered.body.attendees[0];
    const forBo = await post(`/events/${eventId}/stays`, {
      crewMemberId: bo.crewMemberId,
      lastName: 'Berg',
      ...nights,
    });
    expect(forBo).toMatchObject({
      crewMemberId: bo.crewMemberId,
      firstName: 'Bo',
      lastName: 'Berg',
      email: 'bo@example.org',
    });
    const forGuest = await post(`/events/${eventId}/stays`, { attendeeId: guest.attendeeId, ...nights });
    expect(forGuest).toMatchObject({
      attendeeId: guest.attendeeId,
      firstName: guest.firstName,
      lastName: guest.lastName,
      email: guest.email,
    });
    const named = await post(`/events/${eventId}/stays`, {
      firstName: 'Cy',
      email: 'Cy@Example.org',
      ...nights,
    });
    expect(named).toMatchObject({
      speakerId: null,
      crewMemberId: null,
      firstName: 'Cy',
      lastName: null,
      email: 'cy@example.org',
    });
  });

  it('names every bad field: two links, unknown people, no one named, nights the wrong way, unknown fields', async () => {
    const eventId = await newEvent();
    const other = await newEvent();
    const elsewhere = await speaker(other, 'Elsewhere', 'elsewhere@example.org');
    const bo = await crewMember(eventId, 'Bo', 'bo2@example.org');
    const twoLinks = expectProblem(
      await t.api(`/events/${eventId}/stays`, {
        key: organiser,
        method: 'POST',
        body: {
          speakerId: elsewhere.speakerId,
          crewMemberId: bo.crewMemberId,
          checkInDate: '2027-05-02',
          checkOutDate: '2027-05-01',
        },
      }),
      400,
      'invalidRequest',
    );
    expect(twoLinks.errors.map((e: any) => e.field).sort()).toEqual([
      'checkOutDate',
      'crewMemberId',
      'speakerId',
    ]);
    const nobody = expectProblem(
      await t.api(`/events/${eventId}/stays`, { key: organiser, method: 'POST', body: nights }),
      400,
      'invalidRequest',
    );
    expect(nobody.errors.map((e: any) => e.field)).toEqual(['firstName']);
    const strict = expectProblem(
      await t.api(`/events/${eventId}/stays`, {
        key: organiser,
        method: 'POST',
        body: { firstName: 'X', checkInDate: 'soon', checkOutDate: '2027-05-01', pillow: 'soft' },
      }),
      400,
      'invalidRequest',
    );
    expect(strict.errors.map((e: any) => e.field).sort()).toEqual(['checkInDate', 'pillow']);
    expect((await t.api(`/events/${eventId}/stays`, { key: reader })).body.data).toEqual([]);
  });

  it('assigns, changes and cancels a stay, each move once, a move its status does not allow answers 409 naming it', async () => {
    const eventId = await newEvent();
    const stay = await post(`/events/${eventId}/stays`, { firstName: 'Di', ...nights });
    const url = `/events/${eventId}/stays/${stay.stayId}`;
    // A requested stay gets its hotel by assignment, not by a change.
    expect(
      expectProblem(
        await t.api(url, { key: organiser, method: 'PATCH', body: { hotel: 'Grand' } }),
        400,
        'invalidRequest',
      ).errors[0].field,
    ).toBe('hotel');
    const assigned = await post(`${url}/assign`, { hotel: 'Grand Hotel', room: '412' }, 200);
    expect(assigned).toMatchObject({ status: 'assigned', hotel: 'Grand Hotel', room: '412' });
    const again = expectProblem(
      await t.api(`${url}/assign`, { key: organiser, method: 'POST', body: { hotel: 'Other' } }),
      409,
      'statusNotAllowed',
    );
    expect(again.currentStatus).toBe('assigned');
    const changed = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { room: null, checkOutDate: '2027-05-03' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      status: 'assigned',
      hotel: 'Grand Hotel',
      room: null,
      checkOutDate: '2027-05-03',
    });
    expectProblem(
      await t.api(url, { key: organiser, method: 'PATCH', body: { checkInDate: '2027-05-04' } }),
      400,
      'invalidRequest',
    );
    // A change that sends nothing changes nothing, and tells no one.
    expect((await t.api(url, { key: organiser, method: 'PATCH', body: {} })).body).toEqual(changed.body);
    expect((await post(`${url}/cancel`, {}, 200)).status).toBe('cancelled');
    for (const res of [
      await t.api(`${url}/cancel`, { key: organiser, method: 'POST', body: {} }),
      await t.api(url, { key: organiser, method: 'PATCH', body: { checkInDate: '2027-04-29' } }),
    ])
      expect(expectProblem(res, 409, 'statusNotAllowed').currentStatus).toBe('cancelled');
    expect(await messages(eventId)).toEqual([
      ['stay.requested', 'requested'],
      ['stay.assigned', 'assigned'],
      ['stay.changed', 'assigned'],
      ['stay.cancelled', 'cancelled'],
    ]);
  });

  it('answers a stale If-Match with 412 and replays a request sent again with the same Idempotency-Key', async () => {
    const eventId = await newEvent();
    const send = () =>
      t.api(`/events/${eventId}/stays`, {
        key: organiser,
        method: 'POST',
        body: { firstName: 'Once', ...nights },
        headers: { 'idempotency-key': 'stay-once' },
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    const url = `/events/${eventId}/stays/${a.body.stayId}`;
    expectProblem(
      await t.api(url, {
        key: organiser,
        method: 'PATCH',
        body: { checkOutDate: '2027-05-05' },
        headers: { 'if-match': '"stale"' },
      }),
      412,
      'preconditionFailed',
    );
    const current = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { checkOutDate: '2027-05-05' },
      headers: { 'if-match': a.headers.get('etag')! },
    });
    expect(current.status).toBe(200);
    expect((await t.api(`/events/${eventId}/stays`, { key: reader })).body.data).toHaveLength(1);
  });

  it('removes a stay entered by mistake (204), telling receivers it is off; then it is gone', async () => {
    const eventId = await newEvent();
    const stay = await post(`/events/${eventId}/stays`, { firstName: 'Oops', ...nights });
    const url = `/events/${eventId}/stays/${stay.stayId}`;
    expectProblem(
      await t.api(url, { key: organiser, method: 'DELETE', headers: { 'if-match': '"stale"' } }),
      412,
      'preconditionFailed',
    );
    expect((await t.api(url, { key: organiser, method: 'DELETE' })).status).toBe(204);
    expectProblem(await t.api(url, { key: reader }), 404, 'notFound');
    expectProblem(await t.api(url, { key: organiser, method: 'DELETE' }), 404, 'notFound');
    expect(await messages(eventId)).toEqual([
      ['stay.requested', 'requested'],
      ['stay.cancelled', 'cancelled'],
    ]);
  });
});

describe('travel', () => {
  it('books, changes and cancels a journey for a crew member, each sending travel.changed; a cancelled one stays so', async () => {
    const eventId = await newEvent();
    const bo = await crewMember(eventId, 'Bo Berg', 'bo.travel@example.org');
    const booked = await t.api(`/events/${eventId}/travel`, {
      key: organiser,
      method: 'POST',
      body: { crewMemberId: bo.crewMemberId, ...journey },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(booked.body).toMatchObject({
      crewMemberId: bo.crewMemberId,
      firstName: 'Bo',
      lastName: 'Berg',
      status: 'booked',
      mode: 'train',
      from: 'Bergen',
      to: 'Oslo S',
      departsUtc: '2027-04-30T06:00:00.000Z',
      reference: 'NSB-4711',
    });
    const url = `/events/${eventId}/travel/${booked.body.travelId}`;
    const withheld = (await t.api(url, { key: writer })).body;
    expect(withheld).toMatchObject({
      firstName: null,
      reference: null,
      personalData: 'withheld',
      to: 'Oslo S',
    });
    const changed = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { arrivesUtc: '2027-04-30T14:30:00+01:00', reference: null },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ arrivesUtc: '2027-04-30T13:30:00.000Z', reference: null });
    const wrongWay = expectProblem(
      await t.api(url, { key: organiser, method: 'PATCH', body: { departsUtc: '2027-04-30T15:00:00Z' } }),
      400,
      'invalidRequest',
    );
    expect(wrongWay.errors.map((e: any) => e.field)).toEqual(['departsUtc']);
    expect((await post(`${url}/cancel`, {}, 200)).status).toBe('cancelled');
    for (const res of [
      await t.api(`${url}/cancel`, { key: organiser, method: 'POST', body: {} }),
      await t.api(url, { key: organiser, method: 'PATCH', body: { to: 'Lillestrøm' } }),
    ])
      expect(expectProblem(res, 409, 'statusNotAllowed').currentStatus).toBe('cancelled');
    expect(
      (await t.api(`/events/${eventId}/travel?status=cancelled`, { key: reader })).body.data,
    ).toHaveLength(1);
    expect(await messages(eventId)).toEqual([
      ['travel.changed', 'booked'],
      ['travel.changed', 'booked'],
      ['travel.changed', 'cancelled'],
    ]);
  });

  it('names every bad field of a booking; an attendee link is not offered for travel', async () => {
    const eventId = await newEvent();
    const res = await t.api(`/events/${eventId}/travel`, {
      key: organiser,
      method: 'POST',
      body: { ...journey, firstName: 'X', mode: 'rocket', attendeeId: crypto.randomUUID() },
    });
    expect(
      expectProblem(res, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['attendeeId', 'mode']);
    const late = expectProblem(
      await t.api(`/events/${eventId}/travel`, {
        key: organiser,
        method: 'POST',
        body: { ...journey, firstName: 'X', from: ' ', arrivesUtc: journey.departsUtc },
      }),
      400,
      'invalidRequest',
    );
    expect(late.errors.map((e: any) => e.field).sort()).toEqual(['arrivesUtc', 'from']);
  });

  it('removes a journey booked by mistake (204): receivers get it as cancelled, and it is gone', async () => {
    const eventId = await newEvent();
    const booked = await post(`/events/${eventId}/travel`, { firstName: 'Oops', ...journey }, 201);
    const url = `/events/${eventId}/travel/${booked.travelId}`;
    expect((await t.api(url, { key: organiser, method: 'DELETE' })).status).toBe(204);
    expectProblem(await t.api(url, { key: reader }), 404, 'notFound');
    expect(await messages(eventId)).toEqual([
      ['travel.changed', 'booked'],
      ['travel.changed', 'cancelled'],
    ]);
  });
});

describe('lists', () => {
  it('pages stays and journeys by cursor and shows only what changed since updatedSince', async () => {
    const eventId = await newEvent();
    const stays = [];
    for (const name of ['A', 'B', 'C'])
      stays.push(await post(`/events/${eventId}/stays`, { firstName: name, ...nights }));
    const trip = await post(`/events/${eventId}/travel`, { firstName: 'A', ...journey });
    const first = await t.api(`/events/${eventId}/stays?limit=2`, { key: reader });
    expect(first.body.data.map((s: any) => s.firstName)).toEqual(['A', 'B']);
    const second = await t.api(`/events/${eventId}/stays?limit=2&cursor=${first.body.nextCursor}`, {
      key: reader,
    });
    expect(second.body.data.map((s: any) => s.firstName)).toEqual(['C']);
    clock.advance(1000);
    const since = clock.now().toISOString();
    clock.advance(1000);
    await post(`/events/${eventId}/stays/${stays[0].stayId}/assign`, { hotel: 'Grand' }, 200);
    await post(`/events/${eventId}/travel/${trip.travelId}/cancel`, {}, 200);
    const changedStays = await t.api(`/events/${eventId}/stays?updatedSince=${encodeURIComponent(since)}`, {
      key: reader,
    });
    expect(changedStays.body.data.map((s: any) => s.stayId)).toEqual([stays[0].stayId]);
    const changedTravel = await t.api(`/events/${eventId}/travel?updatedSince=${encodeURIComponent(since)}`, {
      key: reader,
    });
    expect(changedTravel.body.data.map((s: any) => s.travelId)).toEqual([trip.travelId]);
    expect((await t.api(`/events/${eventId}/stays?status=assigned`, { key: reader })).body.data).toHaveLength(
      1,
    );
  });
});

describe('refusals', () => {
  it('writes need logistics:write and reads attendees:read, each named', async () => {
    const eventId = await newEvent();
    const stay = await post(`/events/${eventId}/stays`, { firstName: 'S', ...nights });
    const trip = await post(`/events/${eventId}/travel`, { firstName: 'T', ...journey });
    for (const res of await Promise.all([
      t.api(`/events/${eventId}/stays`, { key: reader, method: 'POST', body: { firstName: 'X', ...nights } }),
      t.api(`/events/${eventId}/stays/${stay.stayId}/assign`, {
        key: reader,
        method: 'POST',
        body: { hotel: 'H' },
      }),
      t.api(`/events/${eventId}/stays/${stay.stayId}`, { key: reader, method: 'PATCH', body: {} }),
      t.api(`/events/${eventId}/stays/${stay.stayId}/cancel`, { key: reader, method: 'POST', body: {} }),
      t.api(`/events/${eventId}/stays/${stay.stayId}`, { key: reader, method: 'DELETE' }),
      t.api(`/events/${eventId}/travel`, {
        key: reader,
        method: 'POST',
        body: { firstName: 'X', ...journey },
      }),
      t.api(`/events/${eventId}/travel/${trip.travelId}`, { key: reader, method: 'PATCH', body: {} }),
      t.api(`/events/${eventId}/travel/${trip.travelId}/cancel`, { key: reader, method: 'POST', body: {} }),
      t.api(`/events/${eventId}/travel/${trip.travelId}`, { key: reader, method: 'DELETE' }),
    ]))
      expect(expectProblem(res, 403, 'missingScope').scope).toBe('logistics:write');
    for (const path of ['stays', `stays/${stay.stayId}`, 'travel', `travel/${trip.travelId}`])
      expect(
        expectProblem(await t.api(`/events/${eventId}/${path}`, { key: financeOnly }), 403, 'missingScope')
          .scope,
      ).toBe('attendees:read');
  });

  it('is refused in the demonstration workspace with 403 demoWorkspace', async () => {
    const summit = sampleIds(demoWorkspaceId).event('summit');
    for (const res of [
      await t.api(`/events/${summit}/stays`, {
        key: t.server.demoKey,
        method: 'POST',
        body: { firstName: 'D', ...nights },
      }),
      await t.api(`/events/${summit}/travel`, {
        key: t.server.demoKey,
        method: 'POST',
        body: { firstName: 'D', ...journey },
      }),
    ])
      expectProblem(res, 403, 'demoWorkspace');
  });
});

describe('erasure', () => {
  it('erases a stay and a journey through their speaker or crew link, even under another address, and every copy', async () => {
    const eventId = await newEvent();
    const email = 'erase.me.logistics@example.org';
    const sam = await speaker(eventId, 'Sam Erasable', email);
    const vic = await crewMember(eventId, 'Vic Erasable', email);
    // Given under other addresses: only the links lead erasure to them.
    const stay = await post(`/events/${eventId}/stays`, {
      speakerId: sam.speakerId,
      email: 'sam.hotel@example.org',
      ...nights,
    });
    const trip = await post(`/events/${eventId}/travel`, {
      crewMemberId: vic.crewMemberId,
      email: 'vic.travel@example.org',
      ...journey,
      reference: 'PNR-SECRET',
    });
    const copies = async () =>
      JSON.stringify((await outbox(t, workspaceId)).filter((m) => m.eventId === eventId));
    expect(await copies()).toContain('PNR-SECRET');

    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts).toMatchObject({ stays: 1, travel: 1 });
    const stored = await copies();
    for (const trace of ['Sam', 'Vic', 'Erasable', 'sam.hotel@example.org', 'PNR-SECRET'])
      expect(stored).not.toContain(trace);
    const db = t.server.services.db;
    expect(
      await db
        .selectFrom('stays')
        .select(['first_name', 'last_name', 'email', 'erased'])
        .where('id', '=', stay.stayId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ first_name: null, last_name: null, email: null, erased: 1 });
    expect(
      await db
        .selectFrom('travel')
        .select(['first_name', 'last_name', 'email', 'reference', 'erased'])
        .where('id', '=', trip.travelId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ first_name: null, last_name: null, email: null, reference: null, erased: 1 });
    const shown = (await t.api(`/events/${eventId}/stays/${stay.stayId}`, { key: reader })).body;
    expect(shown).toMatchObject({ firstName: null, email: null, erased: true, personalData: 'erased' });
    // Nothing personal is written for them again.
    expectProblem(
      await t.api(`/events/${eventId}/travel/${trip.travelId}`, {
        key: organiser,
        method: 'PATCH',
        body: { reference: 'NEW' },
      }),
      400,
      'invalidRequest',
    );
  });
});
