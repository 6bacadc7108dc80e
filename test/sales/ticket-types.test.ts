// Ticket types: list with cursor, limit and updatedSince;
// get with ETag; PATCH as JSON merge patch with If-Match; capacity under the tickets' lock
// (capacityBelowTaken, sold out and reopening); price and VAT unchangeable; the sales window in
// UTC and venue time; access codes never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { callTool, person, register, sampleIds, walkPages } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let writer: string;
let reader: string;
let everything: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Ticket types workspace', true));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['tickets:write'], expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['tickets:read'], expires: 'never' }));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
});
afterAll(async () => t.close());

const path = (ticketTypeId: string, eventId = summit) => `/events/${eventId}/ticket-types/${ticketTypeId}`;
const read = (ticketTypeId: string, headers: Record<string, string> = {}) =>
  t.api(path(ticketTypeId), { key: reader, headers });
const patch = (ticketTypeId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.api(path(ticketTypeId), { key: writer, method: 'PATCH', body, headers });

describe('GET /events/{eventId}/ticket-types', () => {
  it('lists every ticket type of the event with the fields of the spec', async () => {
    const res = await t.api(`/events/${summit}/ticket-types`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data.map((x: any) => x.name).sort()).toEqual(
      ['Crew', 'Early bird', 'Partner', 'Speaker', 'Standard', 'Student', 'VIP dinner pass'].sort(),
    );
    const vip = res.body.data.find((x: any) => x.name === 'VIP dinner pass');
    expect(Object.keys(vip).sort()).toEqual(
      [
        'ticketTypeId',
        'eventId',
        'name',
        'description',
        'price',
        'vatRate',
        'currency',
        'capacity',
        'taken',
        'remaining',
        'maxPerOrder',
        'visibility',
        'requiresApproval',
        'salesStartUtc',
        'salesEndUtc',
        'salesStartLocal',
        'salesEndLocal',
        'includedAddOnIds',
        'sortOrder',
        // Tessera extension (issue 26): when it was retired, null while on sale.
        'retiredUtc',
        // Tessera extension (issue 52): a waiting list when sold out.
        'waitingList',
        'updatedUtc',
      ].sort(),
    );
    expect(vip).toMatchObject({
      eventId: summit,
      price: 7990,
      vatRate: 12,
      currency: 'NOK',
      capacity: 12,
      maxPerOrder: 2,
      visibility: 'public',
      includedAddOnIds: [ids.addOn('summit', 'dinner')],
    });
    expect(vip.remaining).toBe(vip.capacity - vip.taken);
    const speaker = res.body.data.find((x: any) => x.name === 'Speaker');
    expect(speaker).toMatchObject({ capacity: null, remaining: null, visibility: 'hidden' });
    const student = res.body.data.find((x: any) => x.name === 'Student');
    expect(student.requiresApproval).toBe(true);
  });

  it('pages with limit and cursor, each ticket type exactly once', async () => {
    const first = await t.api(`/events/${summit}/ticket-types?limit=3`, { key: reader });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.hasMore).toBe(true);
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/ticket-types?limit=3`);
    expect(pages).toBe(3);
    expect(items).toHaveLength(7);
    expect(new Set(items.map((x) => x.ticketTypeId)).size).toBe(7);
  });

  it('refuses a cursor of another event with 400 invalidCursor, a limit above 500 with 400 invalidRequest', async () => {
    const first = await t.api(`/events/${summit}/ticket-types?limit=3`, { key: reader });
    const cursor = encodeURIComponent(first.body.nextCursor);
    const other = await t.api(`/events/${ids.event('meetup')}/ticket-types?limit=3&cursor=${cursor}`, {
      key: reader,
    });
    expectProblem(other, 400, 'invalidCursor');
    expectProblem(
      await t.api(`/events/${summit}/ticket-types?limit=501`, { key: reader }),
      400,
      'invalidRequest',
    );
  });

  it('lists with updatedSince only what changed at or after that moment', async () => {
    clock.advance(60_000);
    const changed = await patch(ids.ticketType('summit', 'early'), {
      description: 'Changed for updatedSince',
    });
    expect(changed.status).toBe(200);
    const since = changed.body.updatedUtc;
    const res = await t.api(`/events/${summit}/ticket-types?updatedSince=${encodeURIComponent(since)}`, {
      key: reader,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: any) => x.ticketTypeId)).toContain(changed.body.ticketTypeId);
    expect(res.body.data.length).toBeLessThan(7);
    for (const x of res.body.data) expect(x.updatedUtc >= since).toBe(true);
    expectProblem(
      await t.api(`/events/${summit}/ticket-types?updatedSince=yesterday`, { key: reader }),
      400,
      'invalidUpdatedSince',
    );
  });

  it('answers 404 eventNotFound for an unknown event', async () => {
    const res = await t.api('/events/00000000-0000-4000-8000-000000000010/ticket-types', { key: reader });
    expectProblem(res, 404, 'eventNotFound');
  });
});

describe('GET /events/{eventId}/ticket-types/{ticketTypeId}', () => {
  it('answers the ticket type as the list shows it, with an ETag', async () => {
    const id = ids.ticketType('summit', 'standard');
    const res = await read(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    const listed = (await t.api(`/events/${summit}/ticket-types`, { key: reader })).body.data;
    expect(res.body).toEqual(listed.find((x: any) => x.ticketTypeId === id));
  });

  it('answers 304 with no body for If-None-Match with the current ETag, and 200 once it changed', async () => {
    const id = ids.ticketType('summit', 'standard');
    const etag = (await read(id)).headers.get('etag')!;
    const raw = await t.fetch(`${t.server.origin}/api/v1${path(id)}`, {
      headers: { authorization: `Bearer ${reader}`, 'if-none-match': etag },
    });
    expect(raw.status).toBe(304);
    expect(await raw.text()).toBe('');
    // A registration takes a place: the representation, and so the tag, changes.
    expect((await register(t, everything, summit, [person(id)])).status).toBe(201);
    const after = await read(id, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 notFound for an unknown ticket type or one of another event, 404 eventNotFound for an unknown event', async () => {
    expectProblem(await read('00000000-0000-4000-8000-000000000011'), 404, 'notFound');
    expectProblem(await read(ids.ticketType('meetup', 'general')), 404, 'notFound');
    const unknownEvent = await t.api(
      path(ids.ticketType('summit', 'vip'), '00000000-0000-4000-8000-000000000012'),
      {
        key: reader,
      },
    );
    expectProblem(unknownEvent, 404, 'eventNotFound');
  });
});

describe('PATCH /events/{eventId}/ticket-types/{ticketTypeId}', () => {
  it('changes only the fields sent (JSON merge patch)', async () => {
    const id = ids.ticketType('summit', 'partner');
    const before = (await read(id)).body;
    const res = await patch(id, { name: 'Partner guest' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, name: 'Partner guest', updatedUtc: res.body.updatedUtc });
    expect((await read(id)).body.name).toBe('Partner guest');
  });

  it('clears the description with null', async () => {
    const id = ids.ticketType('summit', 'partner');
    const res = await patch(id, { description: null });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('');
  });

  it('accepts maxPerOrder 1 and 100, and refuses 0 and 101 with 400 invalidRequest naming the field', async () => {
    const id = ids.ticketType('summit', 'student');
    expect((await patch(id, { maxPerOrder: 1 })).body.maxPerOrder).toBe(1);
    expect((await patch(id, { maxPerOrder: 100 })).body.maxPerOrder).toBe(100);
    for (const maxPerOrder of [0, 101]) {
      const body = expectProblem(await patch(id, { maxPerOrder }), 400, 'invalidRequest');
      expect(body.errors).toEqual([expect.objectContaining({ field: 'maxPerOrder' })]);
    }
    expect((await read(id)).body.maxPerOrder).toBe(100);
  });

  it('refuses price and vatRate with 400 invalidRequest and changes nothing', async () => {
    const id = ids.ticketType('summit', 'standard');
    const before = (await read(id)).body;
    const price = expectProblem(await patch(id, { price: 1, name: 'Cheap now' }), 400, 'invalidRequest');
    expect(price.errors).toEqual([expect.objectContaining({ field: 'price' })]);
    const vat = expectProblem(await patch(id, { vatRate: 0 }), 400, 'invalidRequest');
    expect(vat.errors).toEqual([expect.objectContaining({ field: 'vatRate' })]);
    const after = (await read(id)).body;
    expect(after).toEqual(before);
    expect(after.price).toBe(3490);
    expect(after.vatRate).toBe(12);
  });

  it('refuses a stale If-Match with 412 preconditionFailed and changes nothing; accepts the current one', async () => {
    const id = ids.ticketType('summit', 'early');
    const stale = (await read(id)).headers.get('etag')!;
    expect((await patch(id, { name: 'Early bird (last days)' })).status).toBe(200);
    const refused = await patch(id, { name: 'Lost update' }, { 'if-match': stale });
    const body = expectProblem(refused, 412, 'preconditionFailed');
    const current = await read(id);
    expect(body.etag).toBe(current.headers.get('etag'));
    expect(current.body.name).toBe('Early bird (last days)');
    const ok = await patch(id, { name: 'Early bird' }, { 'if-match': current.headers.get('etag')! });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Early bird');
  });

  it('refuses a capacity below the places taken with 409 capacityBelowTaken naming taken', async () => {
    const id = ids.ticketType('summit', 'vip');
    const before = (await read(id)).body;
    expect(before.taken).toBeGreaterThan(0);
    const res = await patch(id, { capacity: before.taken - 1, name: 'Not applied' });
    const body = expectProblem(res, 409, 'capacityBelowTaken');
    expect(body.taken).toBe(before.taken);
    expect((await read(id)).body).toEqual(before);
  });

  it('refuses a sold-out type with soldOut and reopens it at once when the capacity is raised', async () => {
    const id = ids.ticketType('summit', 'vip');
    const { taken } = (await read(id)).body;
    const full = await patch(id, { capacity: taken });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ capacity: taken, taken, remaining: 0 });
    const refused = await register(t, everything, summit, [person(id)]);
    expect(expectProblem(refused, 400, 'soldOut').ticketTypeId).toBe(id);

    const raised = await patch(id, { capacity: taken + 1 });
    expect(raised.body.remaining).toBe(1);
    const sold = await register(t, everything, summit, [person(id)]);
    expect(sold.status).toBe(201);
    expect((await read(id)).body).toMatchObject({ taken: taken + 1, remaining: 0 });
  });

  it('makes a type unlimited with capacity null', async () => {
    const id = ids.ticketType('summit', 'vip');
    const res = await patch(id, { capacity: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ capacity: null, remaining: null });
    const sold = await register(t, everything, summit, [person(id), person(id)]);
    expect(sold.status).toBe(201);
    expect((await patch(id, { capacity: 12 })).status).toBe(200);
  });

  it('keeps salesStartUtc and salesStartLocal consistent in the event time zone', async () => {
    const id = ids.ticketType('summit', 'standard');
    // Oslo is UTC+1 in January, UTC+2 in July.
    const utc = await patch(id, {
      salesStartUtc: '2026-12-31T23:30:00Z',
      salesEndUtc: '2027-01-06T12:00:00+01:00',
    });
    expect(utc.status).toBe(200);
    expect(utc.body).toMatchObject({
      salesStartUtc: '2026-12-31T23:30:00.000Z',
      salesStartLocal: '2027-01-01T00:30',
      salesEndUtc: '2027-01-06T11:00:00.000Z',
      salesEndLocal: '2027-01-06T12:00',
    });
    const local = await patch(id, { salesStartLocal: '2026-07-01T09:00' });
    expect(local.body).toMatchObject({
      salesStartUtc: '2026-07-01T07:00:00.000Z',
      salesStartLocal: '2026-07-01T09:00',
    });
    const cleared = await patch(id, { salesStartUtc: null, salesEndUtc: null });
    expect(cleared.body).toMatchObject({
      salesStartUtc: null,
      salesStartLocal: null,
      salesEndUtc: null,
      salesEndLocal: null,
    });
  });

  it('shows the sales window in the zone of the ticket type’s own event (Asia/Tokyo)', async () => {
    const id = ids.ticketType('meetup', 'general');
    const res = await t.api(path(id, ids.event('meetup')), {
      key: writer,
      method: 'PATCH',
      body: { salesEndUtc: '2027-02-01T15:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body.salesEndLocal).toBe('2027-02-02T00:00');
  });

  it('refuses a sales window that closes before it opens with 400 invalidRequest', async () => {
    const id = ids.ticketType('summit', 'standard');
    const res = await patch(id, {
      salesStartUtc: '2027-01-10T00:00:00Z',
      salesEndUtc: '2027-01-09T00:00:00Z',
    });
    expectProblem(res, 400, 'invalidRequest');
  });

  it('needs tickets:write (403 missingScope) and refuses the demonstration workspace (403 demoWorkspace)', async () => {
    const id = ids.ticketType('summit', 'standard');
    const res = await t.api(path(id), { key: reader, method: 'PATCH', body: { name: 'x' } });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('tickets:write');

    const demo = t.server.demoKey;
    const demoEvent = (await t.api('/events', { key: demo })).body.data[0].eventId;
    const demoType = (await t.api(`/events/${demoEvent}/ticket-types`, { key: demo })).body.data[0]
      .ticketTypeId;
    const refused = await t.api(path(demoType, demoEvent), {
      key: demo,
      method: 'PATCH',
      body: { capacity: 1 },
    });
    expectProblem(refused, 403, 'demoWorkspace');
  });
});

describe('access codes', () => {
  it('never appear in any answer about ticket types, over REST or MCP', async () => {
    const partner = ids.ticketType('summit', 'partner');
    const answers: unknown[] = [];
    answers.push((await t.api(`/events/${summit}/ticket-types?limit=500`, { key: everything })).body);
    answers.push((await read(partner)).body);
    answers.push((await patch(partner, { description: 'With an access code' })).body);
    answers.push((await t.api(`/events/${summit}/stats`, { key: everything })).body);
    const registered = await register(t, everything, summit, [person(partner)]);
    expect(registered.status).toBe(201);
    answers.push(registered.body);
    answers.push((await t.api(`/events/${summit}/attendees?limit=500`, { key: everything })).body);
    answers.push((await t.api(`/events/${summit}/orders?limit=500`, { key: everything })).body);
    const client = await t.mcp(everything);
    answers.push((await callTool(client, 'list_ticket_types', { eventId: summit })).data);
    answers.push(
      (await callTool(client, 'get_ticket_type', { eventId: summit, ticketTypeId: partner })).data,
    );
    await client.close();
    // The document may name accessCode as something a client sends (creating a ticket type), never
    // as something an answer carries.
    const openapi = (await t.api('//api/v1/openapi.json', { key: everything })).body;
    answers.push(openapi.components.schemas);
    for (const ops of Object.values<any>(openapi.paths))
      for (const op of Object.values<any>(ops))
        answers.push(Object.values<any>(op.responses).map((r) => r.content));

    const partnerView = (await read(partner)).body;
    expect(partnerView.visibility).toBe('code');
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain('PARTNER-2027');
      expect(text).not.toMatch(/accessCode|access_code/);
    }
  });
});
