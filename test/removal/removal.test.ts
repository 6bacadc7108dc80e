// Removing what was made (issue 26, item 5) over HTTPS: each resource removed (204, repeatable:
// 404 after), refused with 409 inUse naming what depends on it, or retired; draft events removed
// with their setup, published ones refused; discount codes changed, switched off and their letters
// freed; If-Match honoured on a removal; modules, scopes, the demonstration workspace; and the
// public page dropping a retired ticket type and a removed session at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Removal', false));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

async function post(path: string, body: Record<string, unknown>) {
  const res = await t.api(path, { key, method: 'POST', body });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}
const del = (path: string, headers: Record<string, string> = {}) =>
  t.api(path, { key, method: 'DELETE', headers });

async function newEvent(extra: Record<string, unknown> = {}): Promise<string> {
  return (await post('/events', eventBody(extra))).eventId;
}

function dependents(body: any): Record<string, number> {
  return Object.fromEntries(body.dependents.map((d: any) => [d.resource, d.count]));
}

describe('programme: rooms, tracks, speakers and sessions', () => {
  it('refuses a room, track or speaker a session uses (409 inUse naming it), removes each once free', async () => {
    const e = await newEvent();
    const room = (await post(`/events/${e}/rooms`, { name: 'Hall' })).roomId;
    const track = (await post(`/events/${e}/tracks`, { name: 'Data', colour: '#112233' })).trackId;
    const speaker = (await post(`/events/${e}/speakers`, { name: 'Ada' })).speakerId;
    const session = (
      await post(`/events/${e}/sessions`, {
        title: 'Keynote',
        startsLocal: '2027-05-01T10:00',
        endsLocal: '2027-05-01T11:00',
        roomId: room,
        trackId: track,
        speakerIds: [speaker],
      })
    ).sessionId;
    for (const path of [`rooms/${room}`, `tracks/${track}`, `speakers/${speaker}`]) {
      const refused = expectProblem(await del(`/events/${e}/${path}`), 409, 'inUse');
      expect(refused.dependents).toEqual([{ resource: 'session', count: 1, ids: [session] }]);
      expect(refused.detail).toContain('1 session');
    }
    expect((await del(`/events/${e}/sessions/${session}`)).status).toBe(204);
    expectProblem(await t.api(`/events/${e}/sessions/${session}`, { key }), 404, 'notFound');
    expectProblem(await del(`/events/${e}/sessions/${session}`), 404, 'notFound');
    for (const path of [`rooms/${room}`, `tracks/${track}`, `speakers/${speaker}`])
      expect((await del(`/events/${e}/${path}`)).status, path).toBe(204);
    expect((await t.api(`/events/${e}/rooms`, { key })).body.data).toEqual([]);
    expect((await t.api(`/events/${e}/speakers`, { key })).body.data).toEqual([]);
    expectProblem(await del(`/events/${e}/rooms/${room}`), 404, 'notFound');
    const activity = await t.server.services.db
      .selectFrom('workspace_activity')
      .select(['resource_type', 'resource_id'])
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', 'in', [room, track, speaker, session])
      .execute();
    expect(activity.filter((a) => a.resource_type === 'session').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a track the call for speakers offers (409 inUse naming the call), removes it once the call no longer does', async () => {
    const e = await newEvent();
    const track = (await post(`/events/${e}/tracks`, { name: 'Data', colour: '#112233' })).trackId;
    const offer = async (trackIds: string[]) => {
      const res = await t.api(`/events/${e}/call-for-speakers`, { key, method: 'PATCH', body: { trackIds } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await offer([track]);
    const refused = expectProblem(await del(`/events/${e}/tracks/${track}`), 409, 'inUse');
    expect(refused.dependents).toEqual([{ resource: 'callForSpeakers', count: 1, ids: [e] }]);
    expect((await t.api(`/events/${e}/call-for-speakers`, { key })).body.trackIds).toEqual([track]);
    await offer([]);
    expect((await del(`/events/${e}/tracks/${track}`)).status).toBe(204);
    expect((await t.api(`/events/${e}/tracks`, { key })).body.data).toEqual([]);
  });

  it('refuses a session a door scans for or attendees rated; honours If-Match (412 when stale)', async () => {
    const e = await newEvent();
    const session = await post(`/events/${e}/sessions`, {
      title: 'Workshop',
      startsLocal: '2027-05-01T12:00',
      endsLocal: '2027-05-01T13:00',
    });
    const door = (
      await post(`/events/${e}/doors`, {
        name: 'Workshop door',
        kind: 'session',
        sessionId: session.sessionId,
      })
    ).doorId;
    const refused = expectProblem(await del(`/events/${e}/sessions/${session.sessionId}`), 409, 'inUse');
    expect(dependents(refused)).toEqual({ door: 1 });
    expect((await del(`/events/${e}/doors/${door}`)).status).toBe(204);
    const read = await t.api(`/events/${e}/sessions/${session.sessionId}`, { key });
    const tag = read.headers.get('etag')!;
    await t.api(`/events/${e}/sessions/${session.sessionId}`, {
      key,
      method: 'PATCH',
      body: { title: 'Workshop 2' },
    });
    expectProblem(
      await del(`/events/${e}/sessions/${session.sessionId}`, { 'if-match': tag }),
      412,
      'preconditionFailed',
    );
    // Attendees see it go at once on the published event's page.
    await t.api(`/events/${e}/status`, { key, method: 'PUT', body: { status: 'published' } });
    const url = (await t.api(`/events/${e}`, { key })).body.url;
    expect(await (await t.fetch(url)).text()).toContain('Workshop 2');
    const fresh = (await t.api(`/events/${e}/sessions/${session.sessionId}`, { key })).headers.get('etag')!;
    expect((await del(`/events/${e}/sessions/${session.sessionId}`, { 'if-match': fresh })).status).toBe(204);
    expect(await (await t.fetch(url)).text()).not.toContain('Workshop 2');
  });
});

describe('doors', () => {
  it('removes a door without scans; refuses one with scans (409 inUse naming how many)', async () => {
    const e = await newEvent();
    const type = (await post(`/events/${e}/ticket-types`, { name: 'Free' })).ticketTypeId;
    const door = (await post(`/events/${e}/doors`, { name: 'Gate' })).doorId;
    const spare = (await post(`/events/${e}/doors`, { name: 'Spare' })).doorId;
    const reg = await register(t, key, e, [person(type)]);
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const scan = await t.api(`/events/${e}/attendees/${reg.body.attendees[0].attendeeId}/check-in`, {
      key,
      method: 'POST',
      body: { doorId: door },
    });
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    const refused = expectProblem(await del(`/events/${e}/doors/${door}`), 409, 'inUse');
    expect(refused.dependents).toEqual([{ resource: 'scan', count: 1, ids: [expect.any(String)] }]);
    expect((await del(`/events/${e}/doors/${spare}`)).status).toBe(204);
    expectProblem(await del(`/events/${e}/doors/${spare}`), 404, 'noDoor');
  });
});

describe('ticket types and add-ons', () => {
  it('removes an unsold ticket type; a sold one is refused and retired instead, off the public page and sales', async () => {
    const e = await newEvent();
    const unsold = (await post(`/events/${e}/ticket-types`, { name: 'Unsold' })).ticketTypeId;
    const sold = (await post(`/events/${e}/ticket-types`, { name: 'Early bird' })).ticketTypeId;
    expect((await register(t, key, e, [person(sold)])).status).toBe(201);
    await t.api(`/events/${e}/status`, { key, method: 'PUT', body: { status: 'published' } });
    const url = (await t.api(`/events/${e}`, { key })).body.url;
    expect((await del(`/events/${e}/ticket-types/${unsold}`)).status).toBe(204);
    expectProblem(await t.api(`/events/${e}/ticket-types/${unsold}`, { key }), 404, 'notFound');
    const refused = expectProblem(await del(`/events/${e}/ticket-types/${sold}`), 409, 'inUse');
    expect(dependents(refused)).toEqual({ ticket: 1 });
    const page = async () => (await t.fetch(url)).text();
    expect(await page()).toContain('Early bird');
    const retired = await t.api(`/events/${e}/ticket-types/${sold}`, {
      key,
      method: 'PATCH',
      body: { retired: true },
    });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);
    expect(retired.body.retiredUtc).toMatch(/Z$/);
    expect(await page()).not.toContain('Early bird');
    const list = (await t.api(`/events/${e}/ticket-types`, { key })).body.data;
    expect(list.map((x: any) => x.ticketTypeId)).toEqual([sold]);
    const refusedSale = expectProblem(await register(t, key, e, [person(sold)]), 400, 'registrationRefused');
    expect(refusedSale.reason).toBe('retired');
    const back = await t.api(`/events/${e}/ticket-types/${sold}`, {
      key,
      method: 'PATCH',
      body: { retired: false },
    });
    expect(back.body.retiredUtc).toBeNull();
    expect((await register(t, key, e, [person(sold)])).status).toBe(201);
  });

  it('refuses a ticket type a door or code is limited to, and an add-on a ticket type bundles or a ticket has', async () => {
    const e = await newEvent();
    const addOn = (await post(`/events/${e}/add-ons`, { name: 'Dinner' })).addOnId;
    const spare = (await post(`/events/${e}/add-ons`, { name: 'Tour' })).addOnId;
    const type = (await post(`/events/${e}/ticket-types`, { name: 'Day', includedAddOnIds: [addOn] }))
      .ticketTypeId;
    await post(`/events/${e}/discount-codes`, { code: 'DAYONLY', percent: 10, ticketTypeIds: [type] });
    expect(dependents(expectProblem(await del(`/events/${e}/ticket-types/${type}`), 409, 'inUse'))).toEqual({
      discountCode: 1,
    });
    expect(dependents(expectProblem(await del(`/events/${e}/add-ons/${addOn}`), 409, 'inUse'))).toEqual({
      ticketType: 1,
    });
    expect((await register(t, key, e, [person(type)])).status).toBe(201);
    expect(dependents(expectProblem(await del(`/events/${e}/add-ons/${addOn}`), 409, 'inUse'))).toEqual({
      ticket: 1,
      ticketType: 1,
    });
    expect((await del(`/events/${e}/add-ons/${spare}`)).status).toBe(204);
    expectProblem(await del(`/events/${e}/add-ons/${spare}`), 404, 'notFound');
  });
});

describe('discount codes', () => {
  it('changes a code with If-Match, switches it off and on, refuses maxUses below used, frees letters once removed', async () => {
    const e = await newEvent();
    const created = await t.api(`/events/${e}/discount-codes`, {
      key,
      method: 'POST',
      body: { code: 'Spring', percent: 10 },
    });
    expect(created.body.active).toBe(true);
    const path = `/events/${e}/discount-codes/${created.body.discountCodeId}`;
    // The tag to send comes from a change (the API reads a code only in its list).
    const made = await t.api(path, { key, method: 'PATCH', body: {} });
    expect(made.headers.get('etag')).toMatch(/^"/);
    const changed = await t.api(path, {
      key,
      method: 'PATCH',
      body: { amount: 25, maxUses: 5, validUntilUtc: '2027-04-01T00:00:00Z', active: false },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ percent: null, amount: 25, maxUses: 5, active: false });
    expect(changed.body.validUntilUtc).toBe('2027-04-01T00:00:00.000Z');
    expectProblem(
      await t.api(path, {
        key,
        method: 'PATCH',
        body: { active: true },
        headers: { 'if-match': made.headers.get('etag')! },
      }),
      412,
      'preconditionFailed',
    );
    const bad = expectProblem(
      await t.api(path, {
        key,
        method: 'PATCH',
        body: { percent: 5, amount: 1, validFromUtc: '2027-05-01T00:00:00Z' },
      }),
      400,
      'invalidRequest',
    );
    expect(bad.errors.map((x: any) => x.field).sort()).toEqual(['percent']);
    const window = expectProblem(
      await t.api(path, { key, method: 'PATCH', body: { validFromUtc: '2027-05-01T00:00:00Z' } }),
      400,
      'invalidRequest',
    );
    expect(window.errors.map((x: any) => x.field)).toEqual(['validUntilUtc']);
    const letters = expectProblem(
      await t.api(path, { key, method: 'PATCH', body: { code: 'OTHER' } }),
      400,
      'invalidRequest',
    );
    expect(letters.errors.map((x: any) => x.field)).toEqual(['code']);
    await t.server.services.db
      .updateTable('discount_codes')
      .set({ used: 3 })
      .where('id', '=', created.body.discountCodeId)
      .execute();
    const below = expectProblem(
      await t.api(path, { key, method: 'PATCH', body: { maxUses: 2 } }),
      400,
      'invalidRequest',
    );
    expect(below.errors.map((x: any) => x.field)).toEqual(['maxUses']);
    expect(dependents(expectProblem(await del(path), 409, 'inUse'))).toEqual({ ticket: 3 });
    expect((await t.api(path, { key, method: 'PATCH', body: { active: true } })).body.active).toBe(true);
    await t.server.services.db
      .updateTable('discount_codes')
      .set({ used: 0 })
      .where('id', '=', created.body.discountCodeId)
      .execute();
    expect((await del(path)).status).toBe(204);
    expectProblem(await del(path), 404, 'notFound');
    expect(
      (
        await t.api(`/events/${e}/discount-codes`, {
          key,
          method: 'POST',
          body: { code: 'SPRING', percent: 5 },
        })
      ).status,
    ).toBe(201);
  });
});

describe('events and communities', () => {
  it('removes a draft event with its setup; refuses a published one (eventPublished) and one with orders (inUse)', async () => {
    const e = await newEvent();
    await post(`/events/${e}/rooms`, { name: 'Hall' });
    const type = (await post(`/events/${e}/ticket-types`, { name: 'Free' })).ticketTypeId;
    await post(`/events/${e}/doors`, { name: 'Gate' });
    await t.api(`/events/${e}/status`, { key, method: 'PUT', body: { status: 'published' } });
    expectProblem(await del(`/events/${e}`), 409, 'eventPublished');
    await t.api(`/events/${e}/status`, { key, method: 'PUT', body: { status: 'draft' } });
    expect((await del(`/events/${e}`)).status).toBe(204);
    expectProblem(await t.api(`/events/${e}`, { key }), 404, 'eventNotFound');
    expectProblem(await del(`/events/${e}`), 404, 'eventNotFound');
    const db = t.server.services.db;
    for (const table of ['rooms', 'ticket_types', 'doors'] as const)
      expect(await db.selectFrom(table).select('id').where('event_id', '=', e).execute(), table).toEqual([]);
    expect(await db.selectFrom('ticket_types').select('id').where('id', '=', type).execute()).toEqual([]);

    const withOrders = await newEvent();
    const free = (await post(`/events/${withOrders}/ticket-types`, { name: 'Free' })).ticketTypeId;
    expect((await register(t, key, withOrders, [person(free)])).status).toBe(201);
    expect(dependents(expectProblem(await del(`/events/${withOrders}`), 409, 'inUse'))).toEqual({ order: 1 });
  });

  it('removes a community without events or members; refuses one with them (inUse)', async () => {
    const empty = (
      await post('/communities', { name: 'Empty club', slug: `empty-${Date.now()}`, timeZone: 'Europe/Oslo' })
    ).communityId;
    const busy = await post('/communities', {
      name: 'Busy club',
      slug: `busy-${Date.now()}`,
      timeZone: 'Europe/Oslo',
      joinPolicy: 'open',
    });
    const e = await newEvent();
    await t.api(`/events/${e}/community`, { key, method: 'PUT', body: { communityId: busy.communityId } });
    await t.api(`/communities/${busy.communityId}/members`, {
      key,
      method: 'POST',
      body: { name: 'Kari', email: 'kari@example.org' },
    });
    const refused = expectProblem(await del(`/communities/${busy.communityId}`), 409, 'inUse');
    expect(dependents(refused)).toEqual({ event: 1, member: 1 });
    expect((await del(`/communities/${empty}`)).status).toBe(204);
    expectProblem(await del(`/communities/${empty}`), 404, 'notFound');
  });
});

describe('the rules every removal keeps', () => {
  it('needs the write scope, respects modules and refuses the demonstration workspace', async () => {
    const e = await newEvent({ modules: { program: false } });
    const { key: reader } = await t.key({
      workspaceId,
      scopes: ['events:read', 'program:read', 'tickets:read'],
    });
    const none = '00000000-0000-4000-8000-000000000099';
    expect(
      expectProblem(
        await t.api(`/events/${e}/rooms/${none}`, { key: reader, method: 'DELETE' }),
        403,
        'missingScope',
      ).scope,
    ).toBe('program:write');
    expect(
      expectProblem(
        await t.api(`/events/${e}/discount-codes/${none}`, { key: reader, method: 'DELETE' }),
        403,
        'missingScope',
      ).scope,
    ).toBe('tickets:write');
    expect(expectProblem(await del(`/events/${e}/rooms/${none}`), 409, 'moduleOff').module).toBe('program');
    expectProblem(await del(`/events/${none}/ticket-types/${none}`), 404, 'eventNotFound');
    const demo = t.server.demoKey;
    const event = (await t.api('/events', { key: demo })).body.data[0].eventId;
    expectProblem(await t.api(`/events/${event}`, { key: demo, method: 'DELETE' }), 403, 'demoWorkspace');
    expectProblem(
      await t.api(`/events/${event}/rooms/${none}`, { key: demo, method: 'DELETE' }),
      403,
      'demoWorkspace',
    );
  });
});
