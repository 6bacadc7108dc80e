// Webhook endpoints (spec "Webhook endpoints", "### Webhook (endpoint)", Errors, Limits) through the
// real server over HTTPS and a real MCP client: the secret shown once and kept encrypted, the
// address checks in the contract's order, the scopes of the chosen types, at most 20 endpoints,
// conditional reads and writes, a new secret with its grace period, test messages and their
// deliveries, endpoints without TESSERA_SECRET_KEY (the data folder's key), the demonstration
// workspace, and MCP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../core/webhooks/signing-secrets';
import { expectProblem } from '../support/fixtures';
import { loopbackMachineName } from '../support/loopback-name';
import { hintsOf } from '../support/mcp-hints';
import { callTool, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const masterKey = 'endpoints-test-master-key-0123456789abcdef';

let t: TestServer;
let bare: TestServer;
let workspaceId: string;
let admin: string;
let stranger: string;

beforeAll(async () => {
  [t, bare] = await Promise.all([
    startTestServer({
      env: { TESSERA_SECRET_KEY: masterKey },
      delivery: { allowPrivate: false },
      dispatcher: false,
    }),
    startTestServer({ delivery: { allowPrivate: false }, dispatcher: false }),
  ]);
  const other = await t.workspace('Somebody else');
  ({ key: stranger } = await t.key({
    workspaceId: other.workspaceId,
    preset: 'everything',
    expires: 'never',
  }));
});
// Each test has a workspace of its own, so none meets the limit of 20 endpoints by accident.
beforeEach(async () => {
  ({ workspaceId } = await t.workspace('Webhook endpoints'));
  ({ key: admin } = await t.key({ workspaceId, preset: 'everything', expires: 'never', name: 'Hook admin' }));
});
afterAll(async () => {
  await Promise.all([t?.close(), bare?.close()]);
});

const webhookFields = [
  'webhookId',
  'url',
  'host',
  'description',
  'eventTypes',
  'active',
  'disabledReason',
  'lastStatus',
  'lastDeliveryUtc',
  'createdUtc',
  'createdBy',
].sort();

const secretPattern = /^whsec_[A-Za-z0-9+/]+=*$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let hostCounter = 0;
/** A public https address whose name does not resolve here (no network): accepted at creation. */
const publicUrl = (path = 'in') => {
  hostCounter += 1;
  return `https://hooks${hostCounter}.example.com/${path}`;
};

function create(body: Record<string, unknown>, key = admin, server = t, headers?: Record<string, string>) {
  return server.api('/webhooks', { key, method: 'POST', body, headers });
}

async function made(body: Record<string, unknown> = {}, key = admin) {
  const res = await create({ url: publicUrl(), eventTypes: ['attendee.registered'], ...body }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { webhook: Record<string, any>; secret: string };
}

const row = (id: string, server = t) =>
  server.server.services.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /webhooks', () => {
  it('answers 201 { webhook, secret } with every field of the spec table and a whsec_ secret of at least 24 bytes', async () => {
    const before = Date.now();
    const url = publicUrl('receive');
    const res = await create({
      url,
      description: 'CRM sync',
      eventTypes: ['attendee.registered', 'attendee.cancelled'],
    });
    expect(res.status).toBe(201);
    // Beside the spec's members, warnings (a Tessera extension) when the name does not resolve now.
    expect(
      Object.keys(res.body)
        .filter((k) => k !== 'warnings')
        .sort(),
    ).toEqual(['secret', 'webhook']);
    const { webhook, secret } = res.body;
    expect(secret).toMatch(secretPattern);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(Object.keys(webhook).sort()).toEqual(webhookFields);
    expect(webhook).toEqual({
      webhookId: expect.stringMatching(uuidPattern),
      url,
      host: new URL(url).host,
      description: 'CRM sync',
      eventTypes: ['attendee.registered', 'attendee.cancelled'],
      active: true,
      disabledReason: null,
      lastStatus: null,
      lastDeliveryUtc: null,
      createdUtc: expect.stringMatching(isoPattern),
      createdBy: 'Hook admin',
    });
    expect(Date.parse(webhook.createdUtc)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(webhook.createdUtc)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('makes a new secret for every endpoint', async () => {
    const a = await made();
    const b = await made();
    expect(a.secret).not.toBe(b.secret);
    expect(a.webhook.webhookId).not.toBe(b.webhook.webhookId);
  });

  it('never shows the secret again: GET and the list carry no secret anywhere', async () => {
    const { webhook, secret } = await made();
    const body = secret.slice('whsec_'.length);
    const one = await t.api(`/webhooks/${webhook.webhookId}`, { key: admin });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(webhook);
    const list = await t.api('/webhooks', { key: admin });
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(webhook);
    for (const answer of [one.body, list.body]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(body);
      expect(text).not.toContain('whsec_');
      expect(text.toLowerCase()).not.toContain('secret');
    }
  });

  it('keeps the signing secret only encrypted in the database', async () => {
    const { webhook, secret } = await made();
    const stored = await row(webhook.webhookId);
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(secret.slice('whsec_'.length));
    expect(stored.secret_enc).toEqual(expect.any(String));
    expect(stored.secret_enc!.length).toBeGreaterThan(0);
    // It is the secret, sealed under the deployment's key: opening it gives the secret back.
    expect(decryptSecret(t.server.services.secrets.webhookSecretKey!, stored.secret_enc!)).toBe(secret);
    expect(stored.previous_secret_enc).toBeNull();
  });

  it('hides the query part of the address (often a token) in every answer, and keeps it for sending', async () => {
    const url = 'https://hooks.example.com/in?token=abc123secret';
    const res = await create({ url, eventTypes: ['order.paid'] });
    expect(res.status).toBe(201);
    const { webhook } = res.body;
    expect(webhook.url.startsWith('https://hooks.example.com/in')).toBe(true);
    expect(webhook.host).toBe('hooks.example.com');
    const one = (await t.api(`/webhooks/${webhook.webhookId}`, { key: admin })).body;
    const list = (await t.api('/webhooks', { key: admin })).body.data.find(
      (w: any) => w.webhookId === webhook.webhookId,
    );
    for (const shown of [webhook, one, list]) {
      expect(shown.url.startsWith('https://hooks.example.com/in')).toBe(true);
      expect(shown.url).not.toContain('token');
      expect(shown.url).not.toContain('abc123secret');
      expect(JSON.stringify(shown)).not.toContain('abc123secret');
    }
    expect((await row(webhook.webhookId)).url).toBe(url);
  });

  it('starts switched off when active is false', async () => {
    const { webhook } = await made({ active: false });
    expect(webhook.active).toBe(false);
    expect((await t.api(`/webhooks/${webhook.webhookId}`, { key: admin })).body.active).toBe(false);
  });

  it('takes a description of exactly 200 characters and refuses 201 with 400 invalidRequest', async () => {
    const ok = await made({ description: 'd'.repeat(200) });
    expect(ok.webhook.description).toBe('d'.repeat(200));
    const long = await create({ url: publicUrl(), eventTypes: ['order.paid'], description: 'd'.repeat(201) });
    const problem = expectProblem(long, 400, 'invalidRequest');
    expect(problem.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'description' })]),
    );
  });

  it('does not honour an Idempotency-Key: the same key twice makes two endpoints with two secrets', async () => {
    const body = { url: publicUrl(), eventTypes: ['order.paid'] };
    const headers = { 'idempotency-key': `same-${Math.random()}` };
    const first = await create(body, admin, t, headers);
    const second = await create(body, admin, t, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.webhook.webhookId).not.toBe(first.body.webhook.webhookId);
    expect(second.body.secret).not.toBe(first.body.secret);
  });

  it('refuses a body that is not JSON with 400 invalidBody', async () => {
    const res = await t.api('/webhooks', {
      key: admin,
      method: 'POST',
      rawBody: '{"url": ',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'invalidBody');
  });
});

describe('GET /webhooks', () => {
  it('answers 200 { data: Webhook[], most: 20 }, each webhook with exactly the fields of the spec', async () => {
    await made();
    const res = await t.api('/webhooks', { key: admin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'most']);
    expect(res.body.most).toBe(20);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const webhook of res.body.data) expect(Object.keys(webhook).sort()).toEqual(webhookFields);
  });

  it("shows only the key's own workspace", async () => {
    const { webhook } = await made();
    const theirs = await t.api('/webhooks', { key: stranger });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((w: any) => w.webhookId)).not.toContain(webhook.webhookId);
  });
});

describe('address checks, in the order of the contract', () => {
  const refused = async (url: string, code: string, eventTypes: string[] = ['order.paid']) => {
    const res = await create({ url, eventTypes });
    return expectProblem(res, 400, code);
  };

  it('refuses an address that is not absolute, carries a user name or fragment, or is longer than 2,000 characters with webhookUrl', async () => {
    await refused('hooks.example.com/in', 'webhookUrl');
    await refused('/in', 'webhookUrl');
    await refused('not a url', 'webhookUrl');
    await refused('https://user@hooks.example.com/in', 'webhookUrl');
    await refused('https://user:password@hooks.example.com/in', 'webhookUrl');
    await refused('https://hooks.example.com/in#part', 'webhookUrl');
    const base = 'https://hooks.example.com/';
    await refused(`${base}${'a'.repeat(2001 - base.length)}`, 'webhookUrl');
  });

  it('takes an address of exactly 2,000 characters', async () => {
    const base = 'https://hooks.example.com/';
    const url = `${base}${'a'.repeat(2000 - base.length)}`;
    expect(url.length).toBe(2000);
    const res = await create({ url, eventTypes: ['order.paid'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses an address that is not https with webhookHttps', async () => {
    await refused('http://hooks.example.com/in', 'webhookHttps');
    await refused('ftp://hooks.example.com/in', 'webhookHttps');
  });

  it.each([
    'https://127.0.0.1/in',
    'https://10.0.0.1/in',
    'https://172.16.0.1/in',
    'https://192.168.1.1/in',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/in',
    'https://[::ffff:127.0.0.1]/in',
    'https://100.64.0.1/in',
    'https://224.0.0.1/in',
    'https://0.0.0.0/in',
    'https://[fc00::1]/in',
    'https://[fe80::1]/in',
    'https://localhost/in',
    'https://localhost:8443/in',
    'https://app.localhost/in',
    'https://localhost./in',
    'https://app.localhost./in',
  ])('refuses %s with webhookPrivate', async (url) => {
    await refused(url, 'webhookPrivate');
  });

  it('refuses a name that is not localhost but resolves to loopback (the machine name)', async (ctx) => {
    // Where the machine's name resolves elsewhere there is nothing to show here (localhost is above).
    const name = await loopbackMachineName();
    if (!name) return ctx.skip();
    const body = await refused(`https://${name}/in`, 'webhookPrivate');
    expect(body.detail).toContain('127.');
  });

  it('refuses an unknown event type with eventType, and an empty list with invalidRequest', async () => {
    await refused(publicUrl(), 'eventType', ['attendee.registered', 'attendee.teleported']);
    await refused(publicUrl(), 'eventType', ['webhook.test']);
    const empty = await create({ url: publicUrl(), eventTypes: [] });
    expectProblem(empty, 400, 'invalidRequest');
  });

  it('checks webhookUrl before webhookHttps', async () => {
    await refused('http://user@hooks.example.com/in', 'webhookUrl');
    await refused('http://hooks.example.com/in#part', 'webhookUrl');
    await refused(`http://hooks.example.com/${'a'.repeat(2000)}`, 'webhookUrl');
  });

  it('checks webhookUrl before webhookPrivate', async () => {
    await refused('https://user@127.0.0.1/in', 'webhookUrl');
    await refused('https://localhost/in#part', 'webhookUrl');
  });

  it('checks webhookHttps before webhookPrivate: an http address at a private host is webhookHttps', async () => {
    await refused('http://127.0.0.1/in', 'webhookHttps');
    await refused('http://10.0.0.1/in', 'webhookHttps');
    await refused('http://localhost/in', 'webhookHttps');
  });

  it('checks the address before the event types', async () => {
    await refused('https://user@hooks.example.com/in', 'webhookUrl', ['nope.never']);
    await refused('http://hooks.example.com/in', 'webhookHttps', ['nope.never']);
    await refused('https://10.0.0.1/in', 'webhookPrivate', ['nope.never']);
  });
});

describe('scopes of the chosen event types', () => {
  it('needs webhooks:write: webhooks:read alone cannot add an endpoint', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    const res = await create({ url: publicUrl(), eventTypes: ['content.published'] }, key);
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('webhooks:write');
    // It still reads.
    expect((await t.api('/webhooks', { key })).status).toBe(200);
  });

  it('needs attendees:read and people:read for attendee.registered, naming the one missing', async () => {
    const { key: bareWriter } = await t.key({ workspaceId, scopes: ['webhooks:write'], expires: 'never' });
    const none = await create({ url: publicUrl(), eventTypes: ['attendee.registered'] }, bareWriter);
    expect(expectProblem(none, 403, 'missingScope').scope).toBe('attendees:read');

    const { key: noPeople } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'attendees:read'],
      expires: 'never',
    });
    const half = await create({ url: publicUrl(), eventTypes: ['attendee.registered'] }, noPeople);
    expect(expectProblem(half, 403, 'missingScope').scope).toBe('people:read');

    const { key: enough } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'attendees:read', 'people:read'],
      expires: 'never',
    });
    const ok = await create({ url: publicUrl(), eventTypes: ['attendee.registered'] }, enough);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('needs the scopes of every chosen type, and the catalogue says which', async () => {
    const catalogue = (await t.api('/webhooks/event-types', { key: admin })).body.data as {
      type: string;
      scopes: string[];
    }[];
    const { key } = await t.key({ workspaceId, scopes: ['webhooks:write', 'events:read'], expires: 'never' });
    const needsEventsOnly = catalogue.filter((c) => c.scopes.every((s) => s === 'events:read'));
    expect(needsEventsOnly.map((c) => c.type)).toContain('content.published');
    const ok = await create({ url: publicUrl(), eventTypes: ['content.published'] }, key);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const mixed = await create({ url: publicUrl(), eventTypes: ['content.published', 'order.paid'] }, key);
    expect(expectProblem(mixed, 403, 'missingScope').scope).toBe('orders:read');
  });

  it('checks the scopes of new event types on PATCH too', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['webhooks:write', 'events:read'], expires: 'never' });
    const { webhook } = await made({ eventTypes: ['content.published'] }, key);
    const res = await t.api(`/webhooks/${webhook.webhookId}`, {
      key,
      method: 'PATCH',
      body: { eventTypes: ['claim.paid'] },
    });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('finance:read');
    expect((await t.api(`/webhooks/${webhook.webhookId}`, { key })).body.eventTypes).toEqual([
      'content.published',
    ]);
  });
});

describe('at most 20 endpoints per workspace', () => {
  it('takes 20, refuses the 21st with 400 tooManyEndpoints, and takes one again after a removal', async () => {
    const crowded = await t.workspace('Crowded');
    const { key } = await t.key({ workspaceId: crowded.workspaceId, preset: 'everything', expires: 'never' });
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await create({ url: publicUrl(), eventTypes: ['order.paid'] }, key);
      expect(res.status, `endpoint ${i + 1}: ${JSON.stringify(res.body)}`).toBe(201);
      ids.push(res.body.webhook.webhookId);
    }
    const list = await t.api('/webhooks', { key });
    expect(list.body.data).toHaveLength(20);
    expect(list.body.most).toBe(20);

    const extra = await create({ url: publicUrl(), eventTypes: ['order.paid'] }, key);
    expectProblem(extra, 400, 'tooManyEndpoints');
    expect((await t.api('/webhooks', { key })).body.data).toHaveLength(20);

    // The checks before it still win at the limit (order: address, event types, then the count).
    expectProblem(
      await create({ url: 'https://u@hooks.example.com/', eventTypes: ['order.paid'] }, key),
      400,
      'webhookUrl',
    );
    expectProblem(
      await create({ url: 'http://hooks.example.com/', eventTypes: ['order.paid'] }, key),
      400,
      'webhookHttps',
    );
    expectProblem(
      await create({ url: 'https://10.0.0.1/', eventTypes: ['order.paid'] }, key),
      400,
      'webhookPrivate',
    );
    expectProblem(await create({ url: publicUrl(), eventTypes: ['no.such'] }, key), 400, 'eventType');

    // Another workspace is not affected.
    expect((await create({ url: publicUrl(), eventTypes: ['order.paid'] })).status).toBe(201);

    expect((await t.api(`/webhooks/${ids[0]}`, { key, method: 'DELETE' })).status).toBe(204);
    const again = await create({ url: publicUrl(), eventTypes: ['order.paid'] }, key);
    expect(again.status).toBe(201);
  });
});

describe('GET /webhooks/{webhookId}', () => {
  it('answers with an ETag, and 304 with no body to If-None-Match while unchanged', async () => {
    const { webhook } = await made();
    const first = await t.api(`/webhooks/${webhook.webhookId}`, { key: admin });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();

    const patched = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      method: 'PATCH',
      body: { description: 'changed' },
    });
    expect(patched.status).toBe(200);
    const after = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      headers: { 'if-none-match': etag! },
    });
    expect(after.status).toBe(200);
    expect(after.body.description).toBe('changed');
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it("answers 404 notFound for an unknown id and for another workspace's endpoint", async () => {
    expectProblem(await t.api(`/webhooks/${crypto.randomUUID()}`, { key: admin }), 404, 'notFound');
    const { webhook } = await made();
    const id = webhook.webhookId;
    expectProblem(await t.api(`/webhooks/${id}`, { key: stranger }), 404, 'notFound');
    expectProblem(
      await t.api(`/webhooks/${id}`, { key: stranger, method: 'PATCH', body: { active: false } }),
      404,
      'notFound',
    );
    expectProblem(await t.api(`/webhooks/${id}`, { key: stranger, method: 'DELETE' }), 404, 'notFound');
    expectProblem(await t.api(`/webhooks/${id}/secret`, { key: stranger, method: 'POST' }), 404, 'notFound');
    expectProblem(await t.api(`/webhooks/${id}/test`, { key: stranger, method: 'POST' }), 404, 'notFound');
    expectProblem(await t.api(`/webhooks/${id}/deliveries`, { key: stranger }), 404, 'notFound');
    // Untouched by all that.
    const mine = await t.api(`/webhooks/${id}`, { key: admin });
    expect(mine.body).toEqual(webhook);
  });
});

describe('PATCH /webhooks/{webhookId}', () => {
  it('changes url, description, eventTypes and active, and keeps the secret', async () => {
    const { webhook } = await made({ description: 'first' });
    const before = await row(webhook.webhookId);
    const url = 'https://other.example.com/path?key=hidden-value';
    const res = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      method: 'PATCH',
      body: { url, description: 'second', eventTypes: ['order.paid', 'checkin.created'], active: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      Object.keys(res.body)
        .filter((k) => k !== 'warnings')
        .sort(),
    ).toEqual(webhookFields);
    expect(res.body).toMatchObject({
      webhookId: webhook.webhookId,
      host: 'other.example.com',
      description: 'second',
      eventTypes: ['order.paid', 'checkin.created'],
      active: false,
      createdUtc: webhook.createdUtc,
      createdBy: webhook.createdBy,
    });
    expect(res.body.url).not.toContain('hidden-value');
    expect(res.body.url.startsWith('https://other.example.com/path')).toBe(true);
    // The change's answer less its warnings (the name does not resolve here), which a read never has.
    const { warnings: _, ...changed } = res.body;
    expect((await t.api(`/webhooks/${webhook.webhookId}`, { key: admin })).body).toEqual(changed);
    const after = await row(webhook.webhookId);
    expect(after.url).toBe(url);
    expect(after.secret_enc).toBe(before.secret_enc);

    const on = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      method: 'PATCH',
      body: { active: true },
    });
    expect(on.body).toMatchObject({
      active: true,
      description: 'second',
      eventTypes: ['order.paid', 'checkin.created'],
    });
  });

  it('clears the description with null and leaves what is not sent alone', async () => {
    const { webhook } = await made({ description: 'to be cleared', eventTypes: ['order.paid'] });
    const res = await t.api(`/webhooks/${webhook.webhookId}`, {
      key: admin,
      method: 'PATCH',
      body: { description: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...webhook, description: null });
  });

  it('applies the same checks as adding one', async () => {
    const { webhook } = await made();
    const patch = (body: unknown) =>
      t.api(`/webhooks/${webhook.webhookId}`, { key: admin, method: 'PATCH', body });
    expectProblem(await patch({ url: 'https://user@hooks.example.com/in' }), 400, 'webhookUrl');
    expectProblem(await patch({ url: 'http://hooks.example.com/in' }), 400, 'webhookHttps');
    expectProblem(await patch({ url: 'http://127.0.0.1/in' }), 400, 'webhookHttps');
    expectProblem(await patch({ url: 'https://169.254.169.254/' }), 400, 'webhookPrivate');
    expectProblem(await patch({ url: 'https://[::1]/', eventTypes: ['bogus'] }), 400, 'webhookPrivate');
    expectProblem(await patch({ eventTypes: ['bogus'] }), 400, 'eventType');
    const long = expectProblem(await patch({ description: 'x'.repeat(201) }), 400, 'invalidRequest');
    expect(long.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'description' })]));
    // Nothing changed.
    expect((await t.api(`/webhooks/${webhook.webhookId}`, { key: admin })).body).toEqual(webhook);
  });

  it('answers 412 preconditionFailed to a stale If-Match and takes the current one', async () => {
    const { webhook } = await made();
    const path = `/webhooks/${webhook.webhookId}`;
    const etag = (await t.api(path, { key: admin })).headers.get('etag')!;
    const first = await t.api(path, {
      key: admin,
      method: 'PATCH',
      body: { description: 'one' },
      headers: { 'if-match': etag },
    });
    expect(first.status).toBe(200);
    const stale = await t.api(path, {
      key: admin,
      method: 'PATCH',
      body: { description: 'two' },
      headers: { 'if-match': etag },
    });
    const problem = expectProblem(stale, 412, 'preconditionFailed');
    const current = await t.api(path, { key: admin });
    expect(current.body.description).toBe('one');
    expect(problem.etag).toBe(current.headers.get('etag'));
    const fresh = await t.api(path, {
      key: admin,
      method: 'PATCH',
      body: { description: 'two' },
      headers: { 'if-match': current.headers.get('etag')! },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.description).toBe('two');
  });

  it('answers a PATCH with the ETag a GET gives, which chains as the next If-Match', async () => {
    const { webhook } = await made();
    const path = `/webhooks/${webhook.webhookId}`;
    const first = await t.api(path, { key: admin, method: 'PATCH', body: { description: 'one' } });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await t.api(path, { key: admin })).headers.get('etag')).toBe(etag);
    const next = { key: admin, method: 'PATCH', headers: { 'if-match': etag! } };
    expect((await t.api(path, { ...next, body: { description: 'two' } })).status).toBe(200);
    expectProblem(await t.api(path, { ...next, body: { description: 'three' } }), 412, 'preconditionFailed');
  });

  it('answers 404 notFound for an unknown endpoint', async () => {
    const res = await t.api(`/webhooks/${crypto.randomUUID()}`, {
      key: admin,
      method: 'PATCH',
      body: { active: false },
    });
    expectProblem(res, 404, 'notFound');
  });
});

describe('DELETE /webhooks/{webhookId}', () => {
  it('answers 204, then 404 notFound to every call about it', async () => {
    const { webhook } = await made();
    const path = `/webhooks/${webhook.webhookId}`;
    const res = await t.api(path, { key: admin, method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectProblem(await t.api(path, { key: admin }), 404, 'notFound');
    expectProblem(await t.api(path, { key: admin, method: 'DELETE' }), 404, 'notFound');
    const list = await t.api('/webhooks', { key: admin });
    expect(list.body.data.map((w: any) => w.webhookId)).not.toContain(webhook.webhookId);
    expect(
      await t.server.services.db
        .selectFrom('webhooks')
        .select('id')
        .where('id', '=', webhook.webhookId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('cancels the deliveries still waiting for it', async () => {
    const { webhook } = await made();
    const sent = await t.api(`/webhooks/${webhook.webhookId}/test`, { key: admin, method: 'POST' });
    expect(sent.status).toBe(202);
    expect((await t.api(`/webhooks/${webhook.webhookId}`, { key: admin, method: 'DELETE' })).status).toBe(
      204,
    );
    const delivery = await t.server.services.db
      .selectFrom('deliveries')
      .selectAll()
      .where('message_id', '=', sent.body.messageId)
      .executeTakeFirstOrThrow();
    expect(delivery.state).toBe('cancelled');
  });
});

describe('POST /webhooks/{webhookId}/secret', () => {
  it('makes a new secret, and the old one keeps signing for 24 hours', async () => {
    const { webhook, secret } = await made();
    const before = await row(webhook.webhookId);
    const asked = Date.now();
    const res = await t.api(`/webhooks/${webhook.webhookId}/secret`, { key: admin, method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['previousSecretExpiresUtc', 'secret', 'webhook']);
    expect(res.body.secret).toMatch(secretPattern);
    expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(res.body.secret).not.toBe(secret);
    expect(res.body.webhook).toEqual(webhook);
    expect(res.body.previousSecretExpiresUtc).toMatch(isoPattern);
    const grace = Date.parse(res.body.previousSecretExpiresUtc) - asked;
    expect(grace).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(grace).toBeLessThan(24 * 3_600_000 + 60_000);

    const after = await row(webhook.webhookId);
    const key = t.server.services.secrets.webhookSecretKey!;
    expect(decryptSecret(key, after.secret_enc!)).toBe(res.body.secret);
    expect(after.previous_secret_enc).toBe(before.secret_enc);
    expect(decryptSecret(key, after.previous_secret_enc!)).toBe(secret);
    expect(after.previous_secret_until_utc).toBe(res.body.previousSecretExpiresUtc);
    const stored = JSON.stringify(after);
    expect(stored).not.toContain(res.body.secret.slice('whsec_'.length));
    expect(stored).not.toContain(secret.slice('whsec_'.length));

    // Shown once: nothing of it in GET.
    const read = JSON.stringify((await t.api(`/webhooks/${webhook.webhookId}`, { key: admin })).body);
    expect(read).not.toContain(res.body.secret.slice('whsec_'.length));
  });

  it('needs webhooks:write and answers 404 notFound for an unknown endpoint', async () => {
    const { webhook } = await made();
    const { key } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    const res = await t.api(`/webhooks/${webhook.webhookId}/secret`, { key, method: 'POST' });
    expect(expectProblem(res, 403, 'missingScope').scope).toBe('webhooks:write');
    expectProblem(
      await t.api(`/webhooks/${crypto.randomUUID()}/secret`, { key: admin, method: 'POST' }),
      404,
      'notFound',
    );
  });
});

describe('POST /webhooks/{webhookId}/test and GET /webhooks/{webhookId}/deliveries', () => {
  it('sends a test message (202 with msg_ id) that the deliveries list then shows, its first attempt made', async () => {
    const { webhook } = await made();
    const res = await t.api(`/webhooks/${webhook.webhookId}/test`, { key: admin, method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    // The name does not resolve here: the attempt failed, and is tried again on the schedule.
    expect(res.body.attempt).toMatchObject({ outcome: 'networkError', reason: 'dnsFailure' });

    const list = await t.api(`/webhooks/${webhook.webhookId}/deliveries`, { key: admin });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(list.body.data).toHaveLength(1);
    const [delivery] = list.body.data;
    expect(delivery).toMatchObject({
      messageId: res.body.messageId,
      type: 'webhook.test',
      state: 'pending',
      attempts: [expect.objectContaining({ attempt: 1, outcome: 'networkError' })],
    });
    expect(delivery.deliveryId).toEqual(expect.any(Number));
    expect(delivery.nextAttemptUtc).toMatch(isoPattern);
    expect(delivery.createdUtc).toMatch(isoPattern);
    expect(delivery.updatedUtc).toMatch(isoPattern);
    for (const field of [
      'deliveryId',
      'messageId',
      'type',
      'state',
      'attempts',
      'nextAttemptUtc',
      'createdUtc',
      'updatedUtc',
    ])
      expect(delivery, field).toHaveProperty(field);

    // What is queued is a signed body { type, timestamp, data } about this endpoint.
    const stored = await t.server.services.db
      .selectFrom('deliveries')
      .selectAll()
      .where('message_id', '=', res.body.messageId)
      .executeTakeFirstOrThrow();
    expect(stored.target_id).toBe(webhook.webhookId);
    expect(stored.payload).toEqual(expect.any(String));
    const payload = JSON.parse(stored.payload!);
    expect(Object.keys(payload).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(payload.type).toBe('webhook.test');
    expect(payload.data.webhookId).toBe(webhook.webhookId);
  });

  it('sends a test message to an endpoint switched off as well', async () => {
    const { webhook } = await made({ active: false });
    const res = await t.api(`/webhooks/${webhook.webhookId}/test`, { key: admin, method: 'POST' });
    expect(res.status).toBe(202);
    const list = await t.api(`/webhooks/${webhook.webhookId}/deliveries`, { key: admin });
    expect(list.body.data.map((d: any) => d.messageId)).toEqual([res.body.messageId]);
  });

  it('lists deliveries newest first, paged by limit and cursor without skipping or repeating', async () => {
    const { webhook } = await made();
    const sent: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await t.api(`/webhooks/${webhook.webhookId}/test`, { key: admin, method: 'POST' });
      expect(res.status).toBe(202);
      sent.push(res.body.messageId);
    }
    expect(new Set(sent).size).toBe(12);
    const path = `/webhooks/${webhook.webhookId}/deliveries`;
    const first = await t.api(`${path}?limit=5`, { key: admin });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(5);
    expect(first.body.hasMore).toBe(true);
    expect(typeof first.body.nextCursor).toBe('string');
    expect(first.body.data.map((d: any) => d.messageId)).toEqual([...sent].reverse().slice(0, 5));

    const { items, pages } = await walkPages(t, admin, `${path}?limit=5`);
    expect(pages).toBe(3);
    expect(items.map((d) => d.messageId)).toEqual([...sent].reverse());
    const ids = items.map((d) => d.deliveryId as number);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const created = items.map((d) => Date.parse(d.createdUtc));
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const all = await t.api(path, { key: admin });
    expect(all.body.data).toHaveLength(12);
    expect(all.body.hasMore).toBe(false);

    expectProblem(await t.api(`${path}?cursor=not-a-cursor`, { key: admin }), 400, 'invalidCursor');
  });

  it('filters by state', async () => {
    const { webhook } = await made();
    await t.api(`/webhooks/${webhook.webhookId}/test`, { key: admin, method: 'POST' });
    const path = `/webhooks/${webhook.webhookId}/deliveries`;
    expect((await t.api(`${path}?state=pending`, { key: admin })).body.data).toHaveLength(1);
    expect((await t.api(`${path}?state=succeeded`, { key: admin })).body.data).toHaveLength(0);
    expectProblem(await t.api(`${path}?state=exploded`, { key: admin }), 400, 'invalidRequest');
  });

  it('needs webhooks:write to send and webhooks:read to list; 404 notFound for an unknown endpoint', async () => {
    const { webhook } = await made();
    const { key: reader } = await t.key({ workspaceId, scopes: ['webhooks:read'], expires: 'never' });
    const sent = await t.api(`/webhooks/${webhook.webhookId}/test`, { key: reader, method: 'POST' });
    expect(expectProblem(sent, 403, 'missingScope').scope).toBe('webhooks:write');
    expect((await t.api(`/webhooks/${webhook.webhookId}/deliveries`, { key: reader })).status).toBe(200);
    const { key: other } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const listed = await t.api(`/webhooks/${webhook.webhookId}/deliveries`, { key: other });
    expect(expectProblem(listed, 403, 'missingScope').scope).toBe('webhooks:read');
    const unknown = crypto.randomUUID();
    expectProblem(await t.api(`/webhooks/${unknown}/test`, { key: admin, method: 'POST' }), 404, 'notFound');
    expectProblem(await t.api(`/webhooks/${unknown}/deliveries`, { key: admin }), 404, 'notFound');
  });
});

describe('a deployment without TESSERA_SECRET_KEY', () => {
  // Since 1.0 the key is made in the data folder (instance.key): webhooks work with no setting, and
  // 503 webhooksUnavailable is no longer answered.
  it('makes endpoints, new secrets and test messages with the key of its data folder', async () => {
    const ws = await bare.workspace('No master key', true);
    const { key } = await bare.key({ workspaceId: ws.workspaceId, preset: 'everything', expires: 'never' });

    const made = await create({ url: publicUrl(), eventTypes: ['order.paid'] }, key, bare);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.webhook.webhookId;
    const stored = await bare.server.services.db
      .selectFrom('webhooks')
      .select('secret_enc')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Sealed under the key derived from instance.key, the same the sample endpoints were sealed with.
    expect(decryptSecret(bare.server.services.secrets.webhookSecretKey, stored.secret_enc!)).toBe(
      made.body.secret,
    );
    const rotated = await bare.api(`/webhooks/${id}/secret`, { key, method: 'POST' });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect((await bare.api(`/webhooks/${id}/test`, { key, method: 'POST' })).status).toBe(202);
  });

  it('answers the same through MCP', async () => {
    const ws = await bare.workspace('No master key (MCP)');
    const { key } = await bare.key({ workspaceId: ws.workspaceId, preset: 'everything', expires: 'never' });
    const client = await bare.mcp(key);
    try {
      const res = await callTool(client, 'create_webhook', { url: publicUrl(), eventTypes: ['order.paid'] });
      expect(res.isError, JSON.stringify(res.data)).toBe(false);
      expect(res.data.secret).toMatch(/^whsec_/);
    } finally {
      await client.close();
    }
  });
});

describe('the demonstration workspace', () => {
  it('reads its endpoints but answers 403 demoWorkspace to every change', async () => {
    const demo = t.server.demoKey;
    const list = await t.api('/webhooks', { key: demo });
    expect(list.status).toBe(200);
    const before = list.body.data.length;
    const res = await create({ url: publicUrl(), eventTypes: ['content.published'] }, demo);
    expectProblem(res, 403, 'demoWorkspace');
    expect((await t.api('/webhooks', { key: demo })).body.data).toHaveLength(before);
    // The demonstration data has endpoints: changing one is refused too.
    expect(before).toBeGreaterThan(0);
    const id = list.body.data[0].webhookId;
    expectProblem(
      await t.api(`/webhooks/${id}`, { key: demo, method: 'PATCH', body: { active: false } }),
      403,
      'demoWorkspace',
    );
    expectProblem(await t.api(`/webhooks/${id}`, { key: demo, method: 'DELETE' }), 403, 'demoWorkspace');
    expectProblem(await t.api(`/webhooks/${id}/secret`, { key: demo, method: 'POST' }), 403, 'demoWorkspace');
    expectProblem(await t.api(`/webhooks/${id}/test`, { key: demo, method: 'POST' }), 403, 'demoWorkspace');
  });
});

describe('MCP tools', () => {
  it('are all listed with truthful safety hints', async () => {
    const client = await t.mcp(admin, {}, '?toolsets=webhooks');
    try {
      const listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
      const hints = (name: string) => {
        const tool = listed.get(name);
        expect(tool, name).toBeDefined();
        const { readOnlyHint, destructiveHint, openWorldHint } = hintsOf(tool!);
        return { readOnlyHint, destructiveHint, openWorldHint };
      };
      expect(hints('list_event_types')).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('list_webhooks')).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('get_webhook')).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('list_webhook_deliveries')).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('create_webhook')).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('update_webhook')).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('rotate_webhook_secret')).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(hints('send_test_message')).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: true,
      });
      expect(hints('delete_webhook')).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: false,
      });
    } finally {
      await client.close();
    }
  });

  it('add, list, read, change, test, list deliveries and remove an endpoint end to end', async () => {
    const client = await t.mcp(admin);
    try {
      const url = `${publicUrl('mcp')}?token=mcp-token`;
      const created = await callTool(client, 'create_webhook', {
        url,
        description: 'Made by an assistant',
        eventTypes: ['order.paid'],
      });
      expect(created.isError, JSON.stringify(created.data)).toBe(false);
      expect(created.data.secret).toMatch(secretPattern);
      const webhook = created.data.webhook;
      expect(Object.keys(webhook).sort()).toEqual(webhookFields);
      expect(webhook.url).not.toContain('mcp-token');
      const webhookId = webhook.webhookId as string;

      // REST sees the same endpoint.
      expect((await t.api(`/webhooks/${webhookId}`, { key: admin })).body).toEqual(webhook);

      const list = await callTool(client, 'list_webhooks', {});
      expect(list.isError).toBe(false);
      expect(list.data.most).toBe(20);
      expect(list.data.data).toContainEqual(webhook);
      expect(JSON.stringify(list.data)).not.toContain(created.data.secret.slice('whsec_'.length));

      const got = await callTool(client, 'get_webhook', { webhookId });
      expect(got.data).toEqual(webhook);

      const changed = await callTool(client, 'update_webhook', { webhookId, active: false });
      expect(changed.isError).toBe(false);
      expect(changed.data).toEqual({ ...webhook, active: false });

      const refused = await callTool(client, 'update_webhook', { webhookId, url: 'https://10.0.0.1/' });
      expect(refused.isError).toBe(true);
      expect(refused.data).toMatchObject({ status: 400, code: 'webhookPrivate' });

      const rotated = await callTool(client, 'rotate_webhook_secret', { webhookId });
      expect(rotated.isError).toBe(false);
      expect(rotated.data.secret).toMatch(secretPattern);
      expect(rotated.data.secret).not.toBe(created.data.secret);

      const test = await callTool(client, 'send_test_message', { webhookId });
      expect(test.isError).toBe(false);
      expect(test.data.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
      const deliveries = await callTool(client, 'list_webhook_deliveries', { webhookId });
      expect(deliveries.data.data.map((d: any) => d.messageId)).toEqual([test.data.messageId]);

      const removed = await callTool(client, 'delete_webhook', { webhookId });
      expect(removed.isError).toBe(false);
      expect(removed.data).toMatchObject({ webhookId, deleted: true });
      const gone = await callTool(client, 'get_webhook', { webhookId });
      expect(gone.isError).toBe(true);
      expect(gone.data).toMatchObject({ status: 404, code: 'notFound' });
      const after = await callTool(client, 'list_webhooks', {});
      expect(after.data.data.map((w: any) => w.webhookId)).not.toContain(webhookId);
    } finally {
      await client.close();
    }
  });

  it('refuses through MCP as through REST: address order and scopes', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['webhooks:write'], expires: 'never' });
    const client = await t.mcp(key);
    try {
      const http = await callTool(client, 'create_webhook', {
        url: 'http://127.0.0.1/in',
        eventTypes: ['attendee.registered'],
      });
      expect(http.data).toMatchObject({ status: 400, code: 'webhookHttps' });
      const scope = await callTool(client, 'create_webhook', {
        url: publicUrl(),
        eventTypes: ['attendee.registered'],
      });
      expect(scope.isError).toBe(true);
      expect(scope.data).toMatchObject({ status: 403, code: 'missingScope', scope: 'attendees:read' });
    } finally {
      await client.close();
    }
  });
});
