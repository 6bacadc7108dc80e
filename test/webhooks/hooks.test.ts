// Automation subscriptions (spec "Automation subscriptions", the Hook resource, Authentication
// scopes, Versioning 7): POST /hooks and POST /hooks/{eventType} answer 201 Hook with a Location,
// never the callback address; Idempotency-Key; the refusals (eventType, eventNotFound, webhookHttps,
// webhookPrivate, invalidRequest, tooManyHooks); list, get and delete; the scopes to subscribe and
// to remove (webhooks:write, webhooks:read for keys made before 15 October 2026, plus the type's);
// the same through MCP tools; the demonstration workspace is read-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool, setClock } from '../support/sales';
import { type ApiAnswer, MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let otherWorkspaceId: string;
let writer: string;
let writerId: string;
let outsider: string;
let eventId: string;
let otherEventId: string;

const hookFields = ['active', 'client', 'createdUtc', 'event', 'eventId', 'id'];
const secretPart = 'token=abc';
// A public address literal: checked without a name lookup (resolvers throttle bursts of them).
// Nothing is sent (no dispatcher). One test uses a name that does not resolve, which is accepted.
const publicHost = '93.184.215.14';
const receiver = (name: string) => `https://${publicHost}/${name}?${secretPart}`;
const namedReceiver = 'https://hooks.example.com/zap?token=abc';

beforeAll(async () => {
  t = await startTestServer({
    clock,
    env: { TESSERA_SECRET_KEY: 'hooks-test-master-key-0123456789abcdef' },
    dispatcher: false,
  });
  ({ workspaceId } = await t.workspace('Hooks workspace'));
  ({ workspaceId: otherWorkspaceId } = await t.workspace('Other hooks workspace'));
  ({ key: writer, apiKeyId: writerId } = await t.key({
    workspaceId,
    preset: 'everything',
    expires: 'never',
  }));
  ({ key: outsider } = await t.key({
    workspaceId: otherWorkspaceId,
    preset: 'everything',
    expires: 'never',
  }));
  const made = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
  expect(made.status).toBe(201);
  eventId = made.body.eventId;
  const theirs = await t.api('/events', { key: outsider, method: 'POST', body: eventBody() });
  expect(theirs.status).toBe(201);
  otherEventId = theirs.body.eventId;
});
afterAll(async () => t.close());

function subscribe(
  body: Record<string, unknown>,
  options: { key?: string; headers?: Record<string, string>; type?: string } = {},
): Promise<ApiAnswer> {
  return t.api(options.type === undefined ? '/hooks' : `/hooks/${options.type}`, {
    key: options.key ?? writer,
    method: 'POST',
    body,
    headers: options.headers,
  });
}

async function hookRows(ws = workspaceId) {
  return t.server.services.db.selectFrom('hooks').selectAll().where('workspace_id', '=', ws).execute();
}

/** Makes a key whose created_utc is the given moment, then puts the clock back. */
async function keyMadeAt(iso: string, scopes: string[]) {
  const shift = Date.parse(iso) - clock.now().getTime();
  setClock(clock, iso);
  try {
    return await t.key({ workspaceId, scopes, expires: 'never' });
  } finally {
    clock.advance(-shift);
  }
}

function expectHook(body: any, expected: Record<string, unknown>) {
  // Beside the Hook fields, a POST may warn of its address (warnings, a Tessera extension).
  expect(
    Object.keys(body)
      .filter((k) => k !== 'warnings')
      .sort(),
  ).toEqual(hookFields);
  expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(new Date(body.createdUtc).toISOString()).toBe(body.createdUtc);
  expect(body).toMatchObject(expected);
}

function expectNoAddress(answer: unknown) {
  const text = JSON.stringify(answer);
  expect(text).not.toContain('hooks.example.com');
  expect(text).not.toContain(publicHost);
  expect(text).not.toContain(secretPart);
}

describe('POST /hooks', () => {
  it('answers 201 with exactly the Hook fields and a Location naming the subscription, never the address', async () => {
    const res = await subscribe({ url: namedReceiver, event: 'order.paid', client: 'zapier' });
    expect(res.status).toBe(201);
    expectHook(res.body, { event: 'order.paid', eventId: null, client: 'zapier', active: true });
    expectNoAddress(res.body);
    const location = res.headers.get('location');
    expect(location).not.toBeNull();
    expect(new URL(location!, t.server.origin).pathname).toBe(`/api/v1/hooks/${res.body.id}`);
    // The Location is the address to read and to DELETE.
    const one = await t.api(new URL(location!, t.server.origin).pathname.replace('/api/v1', ''), {
      key: writer,
    });
    expect(one.status).toBe(200);
    // The POST's answer less its warnings (the name does not resolve here), which a read never has.
    const { warnings: _, ...made } = res.body;
    expect(one.body).toEqual(made);
    expectNoAddress(one.body);
    const list = await t.api('/hooks', { key: writer });
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(made);
    expectNoAddress(list.body);
    // What is stored is the address given, with its query.
    const row = (await hookRows()).find((h) => h.id === res.body.id);
    expect(row).toMatchObject({ url: namedReceiver, api_key_id: writerId, event_type: 'order.paid' });
  });

  it('keeps to one event of the workspace when eventId is given', async () => {
    const res = await subscribe({
      url: receiver('one'),
      event: 'attendee.registered',
      eventId,
      client: 'make',
    });
    expect(res.status).toBe(201);
    expectHook(res.body, { event: 'attendee.registered', eventId, client: 'make', active: true });
  });

  it('reads an event id in capitals as the same event', async () => {
    const res = await subscribe({
      url: receiver('caps'),
      event: 'attendee.cancelled',
      eventId: eventId.toUpperCase(),
      client: 'n8n',
    });
    expect(res.status).toBe(201);
    expect(res.body.eventId).toBe(eventId);
  });

  it('POST /hooks/{eventType} does the same with the type in the path', async () => {
    const res = await subscribe(
      { url: receiver('typed'), eventId, client: 'n8n' },
      { type: 'checkin.created' },
    );
    expect(res.status).toBe(201);
    expectHook(res.body, { event: 'checkin.created', eventId, client: 'n8n', active: true });
    expectNoAddress(res.body);
    expect(new URL(res.headers.get('location')!, t.server.origin).pathname).toBe(
      `/api/v1/hooks/${res.body.id}`,
    );
    const one = await t.api(`/hooks/${res.body.id}`, { key: writer });
    expect(one.body).toEqual(res.body);
    const every = await subscribe({ url: receiver('typed-all'), client: 'make' }, { type: 'order.paid' });
    expect(every.status).toBe(201);
    expect(every.body).toMatchObject({ event: 'order.paid', eventId: null, client: 'make' });
  });

  it('reads the platform from the User-Agent when client is absent; a client sent wins', async () => {
    const zapier = await subscribe(
      { url: receiver('ua-zapier'), event: 'order.paid' },
      { headers: { 'user-agent': 'Zapier' } },
    );
    expect(zapier.status).toBe(201);
    expect(zapier.body.client).toBe('zapier');
    const make = await subscribe(
      { url: receiver('ua-make'), event: 'order.paid' },
      { headers: { 'user-agent': 'Make/production' } },
    );
    expect(make.body.client).toBe('make');
    const integromat = await subscribe(
      { url: receiver('ua-integromat') },
      { headers: { 'user-agent': 'Integromat/1.0' }, type: 'order.paid' },
    );
    expect(integromat.body.client).toBe('make');
    const n8n = await subscribe(
      { url: receiver('ua-n8n'), event: 'order.paid' },
      { headers: { 'user-agent': 'n8n/1.62.1' } },
    );
    expect(n8n.body.client).toBe('n8n');
    const sent = await subscribe(
      { url: receiver('ua-sent'), event: 'order.paid', client: 'n8n' },
      { headers: { 'user-agent': 'Zapier' } },
    );
    expect(sent.body.client).toBe('n8n');
  });
});

describe('Idempotency-Key on POST /hooks', () => {
  it('answers a retry with the same body with the first answer and makes one subscription', async () => {
    const body = { url: receiver('idem'), event: 'order.paid', client: 'zapier' };
    const before = (await hookRows()).length;
    const first = await subscribe(body, { headers: { 'idempotency-key': 'hook-retry-1' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await subscribe(body, { headers: { 'idempotency-key': 'hook-retry-1' } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    const rows = await hookRows();
    expect(rows.length).toBe(before + 1);
    expect(rows.filter((r) => r.url === receiver('idem'))).toHaveLength(1);
  });

  it('does the same on POST /hooks/{eventType}', async () => {
    const body = { url: receiver('idem-typed'), client: 'make' };
    const first = await subscribe(body, {
      type: 'order.paid',
      headers: { 'idempotency-key': 'hook-typed-1' },
    });
    const retry = await subscribe(body, {
      type: 'order.paid',
      headers: { 'idempotency-key': 'hook-typed-1' },
    });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    expect((await hookRows()).filter((r) => r.url === receiver('idem-typed'))).toHaveLength(1);
  });

  it('refuses the same key with another body with 422 idempotencyKeyReused and makes nothing', async () => {
    const first = await subscribe(
      { url: receiver('reuse'), event: 'order.paid', client: 'zapier' },
      { headers: { 'idempotency-key': 'hook-reuse' } },
    );
    expect(first.status).toBe(201);
    const before = (await hookRows()).length;
    const other = await subscribe(
      { url: receiver('reuse'), event: 'attendee.registered', client: 'zapier' },
      { headers: { 'idempotency-key': 'hook-reuse' } },
    );
    expectProblem(other, 422, 'idempotencyKeyReused');
    expect((await hookRows()).length).toBe(before);
  });

  it('refuses an invalid key with 400 invalidIdempotencyKey and makes nothing', async () => {
    const before = (await hookRows()).length;
    for (const key of ['x'.repeat(256), 'two words']) {
      const res = await subscribe(
        { url: receiver('bad-key'), event: 'order.paid', client: 'zapier' },
        { headers: { 'idempotency-key': key } },
      );
      expectProblem(res, 400, 'invalidIdempotencyKey');
    }
    expect((await hookRows()).length).toBe(before);
  });
});

describe('refusals of POST /hooks', () => {
  it('refuses an unknown event type with 400 eventType, in the body and in the path', async () => {
    const before = (await hookRows()).length;
    expectProblem(
      await subscribe({ url: receiver('x'), event: 'attendee.teleported', client: 'zapier' }),
      400,
      'eventType',
    );
    expectProblem(
      await subscribe({ url: receiver('x'), client: 'zapier' }, { type: 'order.refunded' }),
      400,
      'eventType',
    );
    expect((await hookRows()).length).toBe(before);
  });

  it('refuses an unknown event id and one of another workspace with 404 eventNotFound', async () => {
    const unknown = await subscribe({
      url: receiver('x'),
      event: 'order.paid',
      eventId: '0190f0f0-0000-7000-8000-000000000000',
      client: 'zapier',
    });
    expectProblem(unknown, 404, 'eventNotFound');
    const theirs = await subscribe({
      url: receiver('x'),
      event: 'order.paid',
      eventId: otherEventId,
      client: 'zapier',
    });
    expectProblem(theirs, 404, 'eventNotFound');
    const typed = await subscribe(
      { url: receiver('x'), eventId: otherEventId, client: 'zapier' },
      { type: 'order.paid' },
    );
    expectProblem(typed, 404, 'eventNotFound');
    expect((await hookRows()).some((r) => r.event_id === otherEventId)).toBe(false);
  });

  it('refuses http with webhookHttps and a private address with webhookPrivate', async () => {
    const before = (await hookRows()).length;
    expectProblem(
      await subscribe({
        url: 'http://hooks.example.com/zap?token=abc',
        event: 'order.paid',
        client: 'zapier',
      }),
      400,
      'webhookHttps',
    );
    expectProblem(
      await subscribe({ url: 'https://127.0.0.1/zap', event: 'order.paid', client: 'zapier' }),
      400,
      'webhookPrivate',
    );
    expectProblem(
      await subscribe({ url: 'https://10.1.2.3/zap', client: 'zapier' }, { type: 'order.paid' }),
      400,
      'webhookPrivate',
    );
    expectProblem(
      await subscribe({ url: 'https://localhost/zap', event: 'order.paid', client: 'zapier' }),
      400,
      'webhookPrivate',
    );
    expect((await hookRows()).length).toBe(before);
  });

  it('refuses a missing url with 400 invalidRequest naming url', async () => {
    const res = await subscribe({ event: 'order.paid', client: 'zapier' });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain('url');
    expectProblem(await subscribe({ client: 'zapier' }, { type: 'order.paid' }), 400, 'invalidRequest');
  });

  it('refuses a platform name that is no short token with invalidRequest on client', async () => {
    const before = (await hookRows()).length;
    for (const client of ['zap ier', 'x'.repeat(41), '', '-make']) {
      const res = await subscribe({ url: receiver('bad-client'), event: 'order.paid', client });
      expect(expectProblem(res, 400, 'invalidRequest').errors[0].field, client).toBe('client');
    }
    expect((await hookRows()).length).toBe(before);
  });
});

describe("the API's own body (url, event, eventId; no client)", () => {
  it('subscribes with a curl User-Agent and records the platform as unknown', async () => {
    const curl = { 'user-agent': 'curl/8.5.0' };
    const res = await subscribe({ url: receiver('plain'), event: 'order.paid', eventId }, { headers: curl });
    expect(res.status).toBe(201);
    expectHook(res.body, { event: 'order.paid', eventId, client: 'unknown', active: true });
    expect((await t.api(`/hooks/${res.body.id}`, { key: writer })).body).toEqual(res.body);
    const typed = await subscribe({ url: receiver('plain-typed') }, { type: 'order.paid', headers: curl });
    expect(typed.status).toBe(201);
    expect(typed.body).toMatchObject({ event: 'order.paid', eventId: null, client: 'unknown' });
  });

  it('accepts any platform: pipedream and others sent or read from the User-Agent, kept in lower case', async () => {
    const sent = await subscribe({ url: receiver('pd'), event: 'order.paid', client: 'pipedream' });
    expect(sent.status).toBe(201);
    expect(sent.body.client).toBe('pipedream');
    const read = await subscribe(
      { url: receiver('pd-ua'), event: 'order.paid' },
      { headers: { 'user-agent': 'Pipedream/1.0 (+https://pipedream.com)' } },
    );
    expect(read.body.client).toBe('pipedream');
    const other = await subscribe({ url: receiver('other'), event: 'order.paid', client: 'IFTTT' });
    expect(other.status).toBe(201);
    expect(other.body.client).toBe('ifttt');
    const own = await subscribe({ url: receiver('own'), event: 'order.paid', client: 'acme-flows_2.0' });
    expect(own.body.client).toBe('acme-flows_2.0');
  });
});

describe('at most 200 subscriptions a workspace', () => {
  it('refuses the 201st with 400 tooManyHooks, and takes one again after one is removed', async () => {
    const { workspaceId: crowded } = await t.workspace('Crowded hooks workspace');
    const { key } = await t.key({ workspaceId: crowded, preset: 'everything', expires: 'never' });
    const made: string[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          subscribe({ url: receiver(`many-${batch}-${i}`), event: 'order.paid', client: 'zapier' }, { key }),
        ),
      );
      for (const a of answers) {
        expect(a.status).toBe(201);
        made.push(a.body.id);
      }
    }
    expect(new Set(made).size).toBe(200);
    expect((await hookRows(crowded)).length).toBe(200);
    const tooMany = await subscribe(
      { url: receiver('many-201'), event: 'order.paid', client: 'zapier' },
      { key },
    );
    expectProblem(tooMany, 400, 'tooManyHooks');
    expectProblem(
      await subscribe({ url: receiver('many-201'), client: 'zapier' }, { key, type: 'order.paid' }),
      400,
      'tooManyHooks',
    );
    expect((await hookRows(crowded)).length).toBe(200);
    // Another workspace is not limited by this one.
    expect(
      (await subscribe({ url: receiver('elsewhere'), event: 'order.paid', client: 'zapier' })).status,
    ).toBe(201);
    expect((await t.api(`/hooks/${made[0]}`, { key, method: 'DELETE' })).status).toBe(204);
    const again = await subscribe(
      { url: receiver('many-201'), event: 'order.paid', client: 'zapier' },
      { key },
    );
    expect(again.status).toBe(201);
    expect((await t.api('/hooks', { key })).body.data).toHaveLength(200);
  });
});

describe('GET and DELETE /hooks', () => {
  it('lists the workspace subscriptions newest first as { data: Hook[] }', async () => {
    const { workspaceId: fresh } = await t.workspace('List hooks workspace');
    const { key } = await t.key({ workspaceId: fresh, preset: 'everything', expires: 'never' });
    const ids: string[] = [];
    for (const event of ['order.paid', 'attendee.registered', 'checkin.created']) {
      const res = await subscribe({ url: receiver(`list-${event}`), event, client: 'make' }, { key });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
      clock.advance(1_000);
    }
    const list = await t.api('/hooks', { key });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['data']);
    expect(list.body.data.map((h: { id: string }) => h.id)).toEqual([...ids].reverse());
    expect(list.body.data.map((h: { event: string }) => h.event)).toEqual([
      'checkin.created',
      'attendee.registered',
      'order.paid',
    ]);
    for (const h of list.body.data) expectHook(h, { active: true, client: 'make', eventId: null });
    expectNoAddress(list.body);
    // Only this workspace's.
    const mine = await t.api('/hooks', { key: writer });
    expect(mine.body.data.some((h: { id: string }) => ids.includes(h.id))).toBe(false);
  });

  it('answers 404 notFound for an unknown id and for one of another workspace, and leaves it', async () => {
    const theirs = await subscribe(
      { url: receiver('theirs'), event: 'order.paid', client: 'zapier' },
      { key: outsider },
    );
    expect(theirs.status).toBe(201);
    const unknown = '0190f0f0-0000-7000-8000-000000000001';
    expectProblem(await t.api(`/hooks/${unknown}`, { key: writer }), 404, 'notFound');
    expectProblem(await t.api(`/hooks/${unknown}`, { key: writer, method: 'DELETE' }), 404, 'notFound');
    expectProblem(await t.api(`/hooks/${theirs.body.id}`, { key: writer }), 404, 'notFound');
    expectProblem(
      await t.api(`/hooks/${theirs.body.id}`, { key: writer, method: 'DELETE' }),
      404,
      'notFound',
    );
    const still = await t.api(`/hooks/${theirs.body.id}`, { key: outsider });
    expect(still.status).toBe(200);
    expect(still.body).toEqual(theirs.body);
  });

  it('DELETE answers 204, then the subscription is gone (404) and out of the list', async () => {
    const made = await subscribe({ url: receiver('gone'), event: 'order.paid', client: 'n8n' });
    const path = `/hooks/${made.body.id}`;
    const del = await t.api(path, { key: writer, method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expectProblem(await t.api(path, { key: writer }), 404, 'notFound');
    expectProblem(await t.api(path, { key: writer, method: 'DELETE' }), 404, 'notFound');
    const list = await t.api('/hooks', { key: writer });
    expect(list.body.data.some((h: { id: string }) => h.id === made.body.id)).toBe(false);
    expect((await hookRows()).some((r) => r.id === made.body.id)).toBe(false);
  });
});

describe('scopes', () => {
  it('GET /hooks and GET /hooks/{id} need webhooks:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    expect(expectProblem(await t.api('/hooks', { key }), 403, 'missingScope').scope).toBe('webhooks:read');
    const made = await subscribe({ url: receiver('read-scope'), event: 'order.paid', client: 'zapier' });
    expect(expectProblem(await t.api(`/hooks/${made.body.id}`, { key }), 403, 'missingScope').scope).toBe(
      'webhooks:read',
    );
    const { key: reader } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    expect((await t.api('/hooks', { key: reader })).status).toBe(200);
    expect((await t.api(`/hooks/${made.body.id}`, { key: reader })).body).toEqual(made.body);
  });

  it('a key made now needs webhooks:write to subscribe: webhooks:read gives 403 missingScope webhooks:write', async () => {
    const { key } = await t.key({
      workspaceId,
      scopes: ['webhooks:read', 'attendees:read', 'people:read', 'orders:read'],
      expires: 'never',
    });
    const before = (await hookRows()).length;
    const res = await subscribe({ url: receiver('reader'), event: 'order.paid', client: 'zapier' }, { key });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('webhooks:write');
    const typed = await subscribe({ url: receiver('reader'), client: 'zapier' }, { key, type: 'order.paid' });
    expect(expectProblem(typed, 403, 'missingScope').scope).toBe('webhooks:write');
    expect((await hookRows()).length).toBe(before);
  });

  it('needs the scopes of what the type delivers, naming the first lacking', async () => {
    const body = { url: receiver('typed-scopes'), event: 'attendee.registered', client: 'zapier' };
    const { key: bare } = await t.key({ workspaceId, scopes: ['webhooks:write'], expires: 'never' });
    expect(expectProblem(await subscribe(body, { key: bare }), 403, 'missingScope').scope).toBe(
      'attendees:read',
    );
    const { key: noPeople } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'attendees:read'],
      expires: 'never',
    });
    expect(expectProblem(await subscribe(body, { key: noPeople }), 403, 'missingScope').scope).toBe(
      'people:read',
    );
    const { key: noAttendees } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'people:read'],
      expires: 'never',
    });
    expect(expectProblem(await subscribe(body, { key: noAttendees }), 403, 'missingScope').scope).toBe(
      'attendees:read',
    );
    const typed = await subscribe(
      { url: receiver('typed-scopes'), client: 'zapier' },
      {
        key: noPeople,
        type: 'attendee.registered',
      },
    );
    expect(expectProblem(typed, 403, 'missingScope').scope).toBe('people:read');
    const { key: enough } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'attendees:read', 'people:read'],
      expires: 'never',
    });
    expect((await subscribe(body, { key: enough })).status).toBe(201);
    // The same key lacks what order.paid delivers (orders:read).
    const paid = await subscribe({ ...body, event: 'order.paid' }, { key: enough });
    expect(expectProblem(paid, 403, 'missingScope').scope).toBe('orders:read');
  });

  it('a key made before 15 October 2026 subscribes with webhooks:read (plus the type scopes)', async () => {
    const legacy = await keyMadeAt('2026-10-01T12:00:00.000Z', [
      'webhooks:read',
      'attendees:read',
      'people:read',
    ]);
    const res = await subscribe(
      { url: receiver('legacy'), event: 'attendee.registered', client: 'zapier' },
      { key: legacy.key },
    );
    expect(res.status).toBe(201);
    expectHook(res.body, { event: 'attendee.registered', client: 'zapier', active: true });
    const typed = await subscribe(
      { url: receiver('legacy-typed'), client: 'make' },
      {
        key: legacy.key,
        type: 'attendee.cancelled',
      },
    );
    expect(typed.status).toBe(201);
    // Still the type's scopes: order.paid delivers orders.
    const paid = await subscribe(
      { url: receiver('legacy'), event: 'order.paid', client: 'zapier' },
      {
        key: legacy.key,
      },
    );
    expect(expectProblem(paid, 403, 'missingScope').scope).toBe('orders:read');
    const bareLegacy = await keyMadeAt('2026-10-01T12:00:00.000Z', ['webhooks:read']);
    const bare = await subscribe(
      { url: receiver('legacy'), event: 'attendee.registered', client: 'zapier' },
      { key: bareLegacy.key },
    );
    expect(expectProblem(bare, 403, 'missingScope').scope).toBe('attendees:read');
  });

  it('draws the line at 15 October 2026 00:00 UTC', async () => {
    const scopes = ['webhooks:read', 'orders:read', 'people:read'];
    const body = { url: receiver('line'), event: 'order.paid', client: 'n8n' };
    // Two seconds before the line: the test clock runs on while the key is made.
    const before = await keyMadeAt('2026-10-14T23:59:58.000Z', scopes);
    expect((await subscribe(body, { key: before.key })).status).toBe(201);
    const on = await keyMadeAt('2026-10-15T00:00:00.000Z', scopes);
    expect(expectProblem(await subscribe(body, { key: on.key }), 403, 'missingScope').scope).toBe(
      'webhooks:write',
    );
  });
});

describe('removing subscriptions', () => {
  it('a key made before 15 October 2026 removes its own with webhooks:read, but not another key’s (403)', async () => {
    const legacy = await keyMadeAt('2026-10-02T08:00:00.000Z', [
      'webhooks:read',
      'orders:read',
      'people:read',
    ]);
    const own = await subscribe(
      { url: receiver('own'), event: 'order.paid', client: 'zapier' },
      { key: legacy.key },
    );
    expect(own.status).toBe(201);
    const others = await subscribe({ url: receiver('others'), event: 'order.paid', client: 'zapier' });
    expect(others.status).toBe(201);
    const refused = await t.api(`/hooks/${others.body.id}`, { key: legacy.key, method: 'DELETE' });
    expect(expectProblem(refused, 403, 'missingScope').scope).toBe('webhooks:write');
    expect((await t.api(`/hooks/${others.body.id}`, { key: writer })).status).toBe(200);
    expect((await t.api(`/hooks/${own.body.id}`, { key: legacy.key, method: 'DELETE' })).status).toBe(204);
    expectProblem(await t.api(`/hooks/${own.body.id}`, { key: writer }), 404, 'notFound');
  });

  it('a key made now with webhooks:read only removes nothing; another key with webhooks:write removes any', async () => {
    const made = await subscribe({ url: receiver('shared'), event: 'order.paid', client: 'make' });
    const { key: reader } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    const refused = await t.api(`/hooks/${made.body.id}`, { key: reader, method: 'DELETE' });
    expect(expectProblem(refused, 403, 'missingScope').scope).toBe('webhooks:write');
    expect((await t.api(`/hooks/${made.body.id}`, { key: reader })).status).toBe(200);
    const { key: otherWriter } = await t.key({ workspaceId, scopes: ['webhooks:write'], expires: 'never' });
    expect((await t.api(`/hooks/${made.body.id}`, { key: otherWriter, method: 'DELETE' })).status).toBe(204);
    expectProblem(await t.api(`/hooks/${made.body.id}`, { key: reader }), 404, 'notFound');
  });

  it('a key made now removes its own with webhooks:write', async () => {
    const { key: full } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'orders:read', 'people:read'],
      expires: 'never',
    });
    const made = await subscribe(
      { url: receiver('own-now'), event: 'order.paid', client: 'make' },
      { key: full },
    );
    expect(made.status).toBe(201);
    expect((await t.api(`/hooks/${made.body.id}`, { key: full, method: 'DELETE' })).status).toBe(204);
  });
});

describe('MCP hook tools', () => {
  const names = ['create_hook', 'create_hook_for_type', 'list_hooks', 'get_hook', 'delete_hook'];

  it('lists the hook tools with truthful annotations', async () => {
    const client = await t.mcp(writer, {}, '?toolsets=webhooks');
    const byName = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    for (const name of names) expect(byName.has(name), name).toBe(true);
    for (const name of ['list_hooks', 'get_hook']) {
      expect(hintsOf(byName.get(name)!), name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
      });
    }
    expect(hintsOf(byName.get('delete_hook')!)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    for (const name of ['create_hook', 'create_hook_for_type']) {
      expect(hintsOf(byName.get(name)!), name).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
      });
    }
    // The schema readers see the spec's 22 types and the 2 marked extensions; the platform is any name, and optional.
    const create = byName.get('create_hook')!.inputSchema as any;
    expect(create.properties.event.enum).toHaveLength(22 + 2);
    expect(create.properties.client.enum).toBeUndefined();
    expect(create.properties.client.type).toBe('string');
    expect(create.required).toEqual(['url', 'event']);
    await client.close();
  });

  it('creates, lists, gets and deletes a subscription, never showing the address', async () => {
    const client = await t.mcp(writer);
    const made = await callTool(client, 'create_hook', {
      url: receiver('mcp'),
      event: 'order.paid',
      client: 'n8n',
    });
    expect(made.isError).toBe(false);
    expectHook(made.data, { event: 'order.paid', eventId: null, client: 'n8n', active: true });
    expectNoAddress(made.data);
    const typed = await callTool(client, 'create_hook_for_type', {
      eventType: 'attendee.registered',
      url: receiver('mcp-typed'),
      eventId,
      client: 'zapier',
    });
    expect(typed.isError).toBe(false);
    expectHook(typed.data, { event: 'attendee.registered', eventId, client: 'zapier', active: true });
    expectNoAddress(typed.data);

    const list = await callTool(client, 'list_hooks', {});
    expect(list.isError).toBe(false);
    expect(list.data.data.slice(0, 2)).toEqual([typed.data, made.data]);
    expectNoAddress(list.data);
    // The REST list is the same.
    expect((await t.api('/hooks', { key: writer })).body).toEqual(list.data);

    const one = await callTool(client, 'get_hook', { hookId: made.data.id });
    expect(one).toEqual({ isError: false, data: made.data });
    expectNoAddress(one.data);

    const del = await callTool(client, 'delete_hook', { hookId: made.data.id });
    expect(del).toEqual({ isError: false, data: { hookId: made.data.id, deleted: true } });
    const after = await callTool(client, 'get_hook', { hookId: made.data.id });
    expect(after.isError).toBe(true);
    expect(after.data.code).toBe('notFound');
    expectProblem(await t.api(`/hooks/${made.data.id}`, { key: writer }), 404, 'notFound');
    expect((await callTool(client, 'delete_hook', { hookId: typed.data.id })).isError).toBe(false);
    await client.close();
  });

  it('honours idempotencyKey and refuses as REST does (eventType, missingScope, client); client optional', async () => {
    const client = await t.mcp(writer);
    const args = {
      url: receiver('mcp-idem'),
      event: 'order.paid',
      client: 'make',
      idempotencyKey: 'mcp-hook-1',
    };
    const first = await callTool(client, 'create_hook', args);
    const retry = await callTool(client, 'create_hook', args);
    expect(first.isError).toBe(false);
    expect(retry.data).toEqual(first.data);
    expect((await hookRows()).filter((r) => r.url === receiver('mcp-idem'))).toHaveLength(1);
    const reused = await callTool(client, 'create_hook', { ...args, event: 'checkin.created' });
    expect(reused.data.code).toBe('idempotencyKeyReused');

    const unknown = await callTool(client, 'create_hook', {
      url: receiver('x'),
      event: 'nope',
      client: 'make',
    });
    expect(unknown).toMatchObject({ isError: true, data: { code: 'eventType', status: 400 } });
    const badClient = await callTool(client, 'create_hook', {
      url: receiver('x'),
      event: 'order.paid',
      client: 'no such platform',
    });
    expect(badClient).toMatchObject({ isError: true, data: { code: 'invalidRequest' } });
    expect(badClient.data.errors[0].field).toBe('client');
    const noClient = await callTool(client, 'create_hook', {
      url: receiver('mcp-plain'),
      event: 'order.paid',
    });
    expect(noClient.isError).toBe(false);
    expect(noClient.data.client).toBe('unknown');
    const pipedream = await callTool(client, 'create_hook_for_type', {
      eventType: 'order.paid',
      url: receiver('mcp-pd'),
      client: 'pipedream',
    });
    expect(pipedream.data.client).toBe('pipedream');
    await client.close();

    const { key: reader } = await t.key({
      workspaceId,
      scopes: ['webhooks:read', 'orders:read', 'people:read'],
      expires: 'never',
    });
    const readerClient = await t.mcp(reader);
    const refused = await callTool(readerClient, 'create_hook', {
      url: receiver('x'),
      event: 'order.paid',
      client: 'make',
    });
    expect(refused).toMatchObject({ isError: true, data: { code: 'missingScope', scope: 'webhooks:write' } });
    const listed = await callTool(readerClient, 'list_hooks', {});
    expect(listed.isError).toBe(false);
    expectNoAddress(listed.data);
    await readerClient.close();
  });
});

describe('demonstration workspace', () => {
  it('refuses subscribing and unsubscribing with 403 demoWorkspace, and lists its subscriptions', async () => {
    const demo = t.server.demoKey;
    const list = await t.api('/hooks', { key: demo });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expectNoAddress(list.body);
    const before = await hookRows(demoWorkspaceId);
    expectProblem(
      await subscribe({ url: receiver('demo'), event: 'order.paid', client: 'zapier' }, { key: demo }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await subscribe({ url: receiver('demo'), client: 'zapier' }, { key: demo, type: 'order.paid' }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await subscribe(
        { url: receiver('demo'), event: 'order.paid', client: 'zapier' },
        { key: demo, headers: { 'idempotency-key': 'demo-hook' } },
      ),
      403,
      'demoWorkspace',
    );
    const hookId = list.body.data[0].id;
    expectProblem(await t.api(`/hooks/${hookId}`, { key: demo, method: 'DELETE' }), 403, 'demoWorkspace');
    const client = await t.mcp(demo);
    const viaMcp = await callTool(client, 'create_hook', {
      url: receiver('demo'),
      event: 'order.paid',
      client: 'make',
    });
    expect(viaMcp).toMatchObject({ isError: true, data: { code: 'demoWorkspace', status: 403 } });
    await client.close();
    expect(await hookRows(demoWorkspaceId)).toEqual(before);
  });
});
