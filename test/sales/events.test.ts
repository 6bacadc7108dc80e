// Events: draft creation with venue and UTC times, slugTaken,
// publish and unpublish, historyNeedsLicence, statistics, registration questions and their
// answers schema, and modules switched off and on again without losing data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let everything: string;
let reader: string;
let ids: ReturnType<typeof sampleIds>;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Events workspace', true));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['events:read'] }));
  ids = sampleIds(workspaceId);
});
afterAll(async () => t.close());

const create = (body: Record<string, unknown>, key = everything) =>
  t.api('/events', { key, method: 'POST', body });
const patchEvent = (eventId: string, body: unknown) =>
  t.api(`/events/${eventId}`, { key: everything, method: 'PATCH', body });
const setStatus = (eventId: string, status: string) =>
  t.api(`/events/${eventId}/status`, { key: everything, method: 'PUT', body: { status } });

describe('POST /events', () => {
  it('creates a draft event (201) with its local times converted to UTC in the venue zone', async () => {
    const res = await create(
      eventBody({
        timeZone: 'Europe/Oslo',
        startsLocal: '2027-05-01T09:00',
        endsLocal: '2027-05-02T17:30',
        languages: ['nb', 'en'],
        currency: 'NOK',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      online: false,
      timeZone: 'Europe/Oslo',
      // Oslo is UTC+2 in May (summer time).
      startsUtc: '2027-05-01T07:00:00.000Z',
      endsUtc: '2027-05-02T15:30:00.000Z',
      startsLocal: '2027-05-01T09:00',
      endsLocal: '2027-05-02T17:30',
      languages: ['nb', 'en'],
      currency: 'NOK',
      venue: { name: 'Main hall', city: 'Oslo', country: 'NO' },
    });
    expect(res.body.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.url).toBe(`${t.server.origin}/e/${res.body.slug}`);
    const read = await t.api(`/events/${res.body.eventId}`, { key: reader });
    expect(read.body).toEqual(res.body);
  });

  it('uses the winter offset for a winter date in the same zone', async () => {
    const res = await create(
      eventBody({ timeZone: 'Europe/Oslo', startsLocal: '2027-01-15T09:00', endsLocal: '2027-01-15T17:00' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.startsUtc).toBe('2027-01-15T08:00:00.000Z');
    expect(res.body.endsUtc).toBe('2027-01-15T16:00:00.000Z');
  });

  it('gives the Local twins of a UTC pair in the venue zone', async () => {
    const res = await create(
      eventBody({
        timeZone: 'Asia/Tokyo',
        startsLocal: undefined,
        endsLocal: undefined,
        startsUtc: '2027-03-01T23:30:00Z',
        endsUtc: '2027-03-02T09:00:00+00:00',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.startsLocal).toBe('2027-03-02T08:30');
    expect(res.body.endsLocal).toBe('2027-03-02T18:00');
  });

  it('lets the UTC pair win when both pairs are sent', async () => {
    const res = await create(
      eventBody({
        timeZone: 'Europe/Oslo',
        startsLocal: '2027-05-01T09:00',
        endsLocal: '2027-05-01T17:00',
        startsUtc: '2027-06-10T10:00:00Z',
        endsUtc: '2027-06-10T18:00:00Z',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.startsUtc).toBe('2027-06-10T10:00:00.000Z');
    expect(res.body.startsLocal).toBe('2027-06-10T12:00');
    expect(res.body.endsLocal).toBe('2027-06-10T20:00');
  });

  it('refuses an end before the start, an unknown zone and a missing venue with 400 invalidRequest', async () => {
    const before = await create(
      eventBody({ startsLocal: '2027-05-01T17:00', endsLocal: '2027-05-01T09:00' }),
    );
    expect(expectProblem(before, 400, 'invalidRequest').errors.length).toBeGreaterThan(0);
    const zone = await create(eventBody({ timeZone: 'Mars/Olympus' }));
    expect(expectProblem(zone, 400, 'invalidRequest').errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'timeZone' })]),
    );
    const venue = await create(eventBody({ venue: undefined }));
    expect(expectProblem(venue, 400, 'invalidRequest').errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'venue' })]),
    );
  });

  it('creates an online event without a venue', async () => {
    const res = await create(eventBody({ online: true, venue: undefined }));
    expect(res.status).toBe(201);
    expect(res.body.online).toBe(true);
    expect(res.body.venue).toBeNull();
  });

  it('refuses a slug another event has with 409 slugTaken', async () => {
    const first = await create(eventBody({ slug: 'taken-slug-2027' }));
    expect(first.status).toBe(201);
    expect(first.body.slug).toBe('taken-slug-2027');
    const second = await create(eventBody({ slug: 'taken-slug-2027' }));
    expectProblem(second, 409, 'slugTaken');
    const list = await walkPages(t, reader, '/events?limit=500');
    expect(list.items.filter((e) => e.slug === 'taken-slug-2027')).toHaveLength(1);
  });

  it('makes a free slug from the name when none is sent, even when the name repeats', async () => {
    const a = await create(eventBody({ name: 'Same Name Conference' }));
    const b = await create(eventBody({ name: 'Same Name Conference' }));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.slug).toMatch(/^same-name-conference/);
    expect(b.body.slug).toMatch(/^same-name-conference/);
    expect(a.body.slug).not.toBe(b.body.slug);
  });

  it('needs events:write (403 missingScope) and refuses the demonstration workspace (403 demoWorkspace)', async () => {
    const res = await create(eventBody(), reader);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('events:write');
    expectProblem(await create(eventBody(), t.server.demoKey), 403, 'demoWorkspace');
  });
});

describe('PATCH /events/{eventId}', () => {
  it('changes only what is sent', async () => {
    const made = (await create(eventBody())).body;
    const res = await patchEvent(made.eventId, { name: 'Renamed event' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...made, name: 'Renamed event', updatedUtc: res.body.updatedUtc });
    expect(res.body.updatedUtc >= made.updatedUtc).toBe(true);
  });

  it('refuses a slug another event has with 409 slugTaken and keeps its own', async () => {
    const a = (await create(eventBody())).body;
    const b = (await create(eventBody())).body;
    expectProblem(await patchEvent(b.eventId, { slug: a.slug }), 409, 'slugTaken');
    expect((await t.api(`/events/${b.eventId}`, { key: reader })).body.slug).toBe(b.slug);
    // Sending its own slug again is no clash.
    expect((await patchEvent(a.eventId, { slug: a.slug })).status).toBe(200);
  });

  it('answers 404 eventNotFound for an unknown event', async () => {
    expectProblem(
      await patchEvent('00000000-0000-4000-8000-000000000001', { name: 'x' }),
      404,
      'eventNotFound',
    );
  });
});

describe('PUT /events/{eventId}/status', () => {
  it('publishes a draft and takes it back to draft', async () => {
    const made = (await create(eventBody())).body;
    const published = await setStatus(made.eventId, 'published');
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');
    expect((await t.api(`/events/${made.eventId}`, { key: reader })).body.status).toBe('published');
    const listed = await t.api('/events?status=published&limit=500', { key: reader });
    expect(listed.body.data.map((e: { eventId: string }) => e.eventId)).toContain(made.eventId);

    const draft = await setStatus(made.eventId, 'draft');
    expect(draft.status).toBe(200);
    expect(draft.body.status).toBe('draft');
    expect((await t.api(`/events/${made.eventId}`, { key: reader })).body.status).toBe('draft');
  });

  it('refuses a status other than published or draft with 400 invalidRequest', async () => {
    const made = (await create(eventBody())).body;
    expectProblem(await setStatus(made.eventId, 'archived'), 400, 'invalidRequest');
  });

  it('reopens an ended edition with few registrations', async () => {
    const past = await create(
      eventBody({
        startsUtc: '2024-03-01T09:00:00Z',
        endsUtc: '2024-03-01T17:00:00Z',
        startsLocal: undefined,
      }),
    );
    expect(past.status).toBe(201);
    expect((await setStatus(past.body.eventId, 'published')).body.status).toBe('published');
  });

  it('refuses to reopen an ended edition above 50 valid registrations with 409 historyNeedsLicence, and allows it at 50', async () => {
    const eventId = ids.event('past');
    const event = (await t.api(`/events/${eventId}`, { key: reader })).body;
    expect(event.name).toBe('Lisbon Design Week 2026');
    expect(event.endsUtc < new Date().toISOString()).toBe(true);
    expect((await setStatus(eventId, 'draft')).body.status).toBe('draft');

    const valid = (await walkPages(t, everything, `/events/${eventId}/attendees?limit=500`)).items.filter(
      (a) => a.valid,
    );
    expect(valid.length).toBeGreaterThan(51);
    expectProblem(await setStatus(eventId, 'published'), 409, 'historyNeedsLicence');
    expect((await t.api(`/events/${eventId}`, { key: reader })).body.status).toBe('draft');

    // Cancel tickets down to 51 valid registrations: still refused.
    const cancel = (a: { attendeeId: string }) =>
      t.api(`/events/${eventId}/attendees/${a.attendeeId}/cancel`, { key: everything, method: 'POST' });
    for (const a of valid.slice(0, valid.length - 51)) expect((await cancel(a)).status).toBe(200);
    expectProblem(await setStatus(eventId, 'published'), 409, 'historyNeedsLicence');
    // At 50 it is within the free limit.
    expect((await cancel(valid[valid.length - 51]!)).status).toBe(200);
    const reopened = await setStatus(eventId, 'published');
    expect(reopened.status).toBe(200);
    expect(reopened.body.status).toBe('published');
  });
});

describe('GET /events/{eventId}/stats', () => {
  it('counts registered, crew, awaiting, cancelled, orders per status and revenue as the lists show them', async () => {
    const eventId = ids.event('summit');
    const stats = (await t.api(`/events/${eventId}/stats`, { key: reader })).body;
    const attendees = (await walkPages(t, everything, `/events/${eventId}/attendees?limit=500`)).items;
    const orders = (await walkPages(t, everything, `/events/${eventId}/orders?limit=500`)).items;
    const types = (await t.api(`/events/${eventId}/ticket-types`, { key: everything })).body.data;
    const crewType = types.find((x: { name: string }) => x.name === 'Crew').ticketTypeId;

    expect(Object.keys(stats).sort()).toEqual(
      [
        'eventId',
        'registered',
        'crew',
        'awaiting',
        'cancelled',
        'checkedIn',
        'capacity',
        'remaining',
        'orders',
        'revenue',
        'currency',
        'ticketTypes',
        'atUtc',
        // Tessera extension (issue 52): the money figures.
        'money',
      ].sort(),
    );
    const valid = attendees.filter((a) => a.valid);
    expect(stats.registered).toBe(valid.filter((a) => a.ticketTypeId !== crewType).length);
    expect(stats.crew).toBe(valid.filter((a) => a.ticketTypeId === crewType).length);
    expect(stats.crew).toBeGreaterThan(0);
    expect(stats.cancelled).toBe(attendees.filter((a) => a.status === 'cancelled').length);
    // Awaiting payment: active tickets whose order is pending, on account, transfer or requested
    // (not those of declined, expired or refunded orders, which no longer wait for anything).
    const waiting = ['pending', 'onAccount', 'transfer', 'requested'];
    expect(stats.awaiting).toBe(
      attendees.filter((a) => a.status === 'active' && waiting.includes(a.orderStatus)).length,
    );
    expect(attendees.some((a) => a.status === 'active' && !a.valid && !waiting.includes(a.orderStatus))).toBe(
      true,
    );
    expect(stats.orders.total).toBe(orders.length);
    for (const [status, n] of Object.entries(stats.orders.byStatus))
      expect(n, status).toBe(orders.filter((o) => o.status === status).length);
    const paid = orders.filter((o) => o.status === 'paid').reduce((n, o) => n + Math.round(o.total * 100), 0);
    expect(stats.revenue).toBe(paid / 100);
    expect(stats.currency).toBe('NOK');
    // The money figures as the order list shows them: received counts orders refunded since.
    const cents = (list: { total: number }[]) => list.reduce((n, o) => n + Math.round(o.total * 100), 0);
    const inStatus = (...statuses: string[]) => orders.filter((o) => statuses.includes(o.status));
    const refunded = orders.reduce((n, o) => n + Math.round(o.refunded * 100), 0);
    // The sample's refunded orders were paid back whole.
    expect(refunded).toBe(cents(inStatus('refunded')));
    expect(refunded).toBeGreaterThan(0);
    expect(stats.money).toMatchObject({
      currency: 'NOK',
      received: cents(inStatus('paid', 'refunded')) / 100,
      outstanding: cents(inStatus(...waiting)) / 100,
      refunded: refunded / 100,
      net: (cents(inStatus('paid', 'refunded')) - refunded) / 100,
      complimentary: { orders: inStatus('free').filter((o) => o.paymentMethod === 'complimentary').length },
    });
    for (const status of waiting)
      expect(stats.money.outstandingByStatus[status], status).toBe(cents(inStatus(status)) / 100);
    // The hidden Speaker type has no limit, so neither has the event.
    expect(stats.capacity).toBeNull();
    expect(stats.ticketTypes).toEqual(
      types.map((x: any) => ({
        ticketTypeId: x.ticketTypeId,
        name: x.name,
        capacity: x.capacity,
        taken: x.taken,
        remaining: x.remaining,
      })),
    );
  });

  it('sums capacity and places left when every ticket type is limited', async () => {
    const eventId = ids.event('forum');
    const stats = (await t.api(`/events/${eventId}/stats`, { key: reader })).body;
    const types = (await t.api(`/events/${eventId}/ticket-types`, { key: everything })).body.data;
    expect(stats.capacity).toBe(230);
    expect(stats.remaining).toBe(230 - types.reduce((n: number, x: any) => n + x.taken, 0));
  });

  it('counts a new registration at once', async () => {
    const eventId = ids.event('summit');
    const before = (await t.api(`/events/${eventId}/stats`, { key: reader })).body;
    const res = await register(t, everything, eventId, [person(ids.ticketType('summit', 'standard'))]);
    expect(res.status).toBe(201);
    const after = (await t.api(`/events/${eventId}/stats`, { key: reader })).body;
    expect(after.registered).toBe(before.registered + 1);
    expect(after.orders.byStatus.free).toBe(before.orders.byStatus.free + 1);
  });

  it('answers 404 eventNotFound for an unknown event', async () => {
    const res = await t.api('/events/00000000-0000-4000-8000-000000000002/stats', { key: reader });
    expectProblem(res, 404, 'eventNotFound');
  });
});

describe('registration questions', () => {
  it('lists the questions in form order with labels by language, kinds and options', async () => {
    const eventId = ids.event('summit');
    const res = await t.api(`/events/${eventId}/questions`, { key: reader });
    expect(res.status).toBe(200);
    const questions = res.body.data;
    expect(questions.map((q: any) => q.kind)).toEqual(['choice', 'choice', 'longText', 'checkbox', 'text']);
    expect(questions.map((q: any) => q.sortOrder)).toEqual([1, 2, 3, 4, 5]);
    expect(questions[0]).toMatchObject({
      questionId: ids.question('summit', 'diet'),
      eventId,
      label: { en: 'Dietary needs', nb: 'Kostbehov' },
      required: true,
    });
    expect(questions[0].options.map((o: any) => o.value)).toEqual([
      'none',
      'vegetarian',
      'vegan',
      'glutenFree',
    ]);
    expect(questions[4]).toMatchObject({ kind: 'text', maxLength: 40 });
  });

  it('answers an empty list for an event without questions', async () => {
    const res = await t.api(`/events/${ids.event('meetup')}/questions`, { key: reader });
    expect(res.body).toEqual({ data: [] });
  });

  it('gives the JSON Schema of the answers object, one property per question', async () => {
    const eventId = ids.event('summit');
    const questions = (await t.api(`/events/${eventId}/questions`, { key: reader })).body.data;
    const res = await t.api(`/events/${eventId}/questions/schema`, { key: reader });
    expect(res.status).toBe(200);
    const schema = res.body;
    expect(schema.type).toBe('object');
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual(questions.map((q: any) => q.questionId).sort());
    const diet = schema.properties[ids.question('summit', 'diet')];
    expect(diet).toMatchObject({ type: 'string', enum: ['none', 'vegetarian', 'vegan', 'glutenFree'] });
    expect(schema.properties[ids.question('summit', 'learn')]).toMatchObject({
      type: 'string',
      maxLength: 1000,
    });
    expect(schema.properties[ids.question('summit', 'newsletter')]).toMatchObject({ type: 'boolean' });
    expect(schema.properties[ids.question('summit', 'badge')]).toMatchObject({
      type: 'string',
      maxLength: 40,
    });
  });

  it('answers 404 eventNotFound for the questions of an unknown event', async () => {
    const id = '00000000-0000-4000-8000-000000000003';
    expectProblem(await t.api(`/events/${id}/questions`, { key: reader }), 404, 'eventNotFound');
    expectProblem(await t.api(`/events/${id}/questions/schema`, { key: reader }), 404, 'eventNotFound');
  });
});

describe('modules', () => {
  it('lists every module as on for a new event unless it was switched off at creation', async () => {
    const res = await create(eventBody({ modules: { crew: false } }));
    expect(res.body.modules).toMatchObject({ checkin: true, program: true, crew: false, budget: true });
  });

  it('switches a module off and on again with PATCH, keeping the others and every record', async () => {
    const eventId = ids.event('meetup');
    const before = (await t.api(`/events/${eventId}`, { key: reader })).body;
    expect(before.modules).toMatchObject({ checkin: true, sponsors: false });
    const attendeesBefore = (await walkPages(t, everything, `/events/${eventId}/attendees?limit=500`)).items;
    const typesBefore = (await t.api(`/events/${eventId}/ticket-types`, { key: everything })).body.data;

    const off = await patchEvent(eventId, { modules: { checkin: false } });
    expect(off.status).toBe(200);
    expect(off.body.modules).toMatchObject({ checkin: false, sponsors: false, program: true });
    expect((await t.api(`/events/${eventId}`, { key: reader })).body.modules.checkin).toBe(false);

    const on = await patchEvent(eventId, { modules: { checkin: true } });
    expect(on.body.modules).toEqual({ ...before.modules, checkin: true });
    expect((await walkPages(t, everything, `/events/${eventId}/attendees?limit=500`)).items).toEqual(
      attendeesBefore,
    );
    expect((await t.api(`/events/${eventId}/ticket-types`, { key: everything })).body.data).toEqual(
      typesBefore,
    );
  });

  it('refuses a module name that does not exist with 400 invalidRequest', async () => {
    expectProblem(
      await patchEvent(ids.event('meetup'), { modules: { teleport: false } }),
      400,
      'invalidRequest',
    );
  });
});
