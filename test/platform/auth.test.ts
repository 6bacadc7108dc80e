// Authentication (spec "Authentication" 1-4): key format, Bearer and X-Api-Key, 401 invalidKey,
// keyExpired and keyRevoked, and only a hash of the secret kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../core/admin/api-keys';
import { expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Auth workspace'));
});
afterAll(async () => t.close());

describe('key format', () => {
  it('makes keys of the marker abk_, a 12-character prefix, an underscore and a 43-character secret', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard' });
    expect(made.key).toMatch(/^abk_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}$/);
    expect(made.prefix).toBe(made.key.slice(0, 16));
    const me = await t.api('/me', { key: made.key });
    expect(me.status).toBe(200);
    expect(me.body.keyPrefix).toBe(made.prefix);
  });

  it('stores only a hash of the secret, never the secret or the whole key', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard' });
    const secret = made.key.slice(17);
    const row = await t.server.services.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', made.apiKeyId)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(made.key);
    expect(row.prefix).toBe(made.prefix);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes a different key every time', async () => {
    const a = await t.key({ workspaceId, preset: 'dashboard' });
    const b = await t.key({ workspaceId, preset: 'dashboard' });
    expect(a.key).not.toBe(b.key);
    expect(a.prefix).not.toBe(b.prefix);
  });
});

describe('sending the key', () => {
  it('accepts the key as a Bearer token', async () => {
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    const res = await t.api('/me', { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.body.workspaceId).toBe(workspaceId);
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    const res = await t.api('/me', { headers: { authorization: `bearer ${key}` } });
    expect(res.status).toBe(200);
  });

  it('accepts the same key in X-Api-Key, with the same answer as Bearer', async () => {
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    const viaHeader = await t.api('/me', { headers: { 'x-api-key': key } });
    const viaBearer = await t.api('/me', { key });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toEqual(viaBearer.body);
  });
});

describe('401 invalidKey', () => {
  it('refuses a call without a key with 401 invalidKey', async () => {
    const res = await t.api('/me');
    expectProblem(res, 401, 'invalidKey');
  });

  it('refuses a malformed key with 401 invalidKey', async () => {
    for (const bad of ['abk_short', 'not-a-key', 'abk_ABCDEFGHIJKL_tooShortSecret', 'Basic dXNlcjpwYXNz']) {
      const res = await t.api('/me', {
        headers: { authorization: bad.startsWith('Basic') ? bad : `Bearer ${bad}` },
      });
      expectProblem(res, 401, 'invalidKey');
    }
  });

  it('refuses a well-formed key this service never issued with 401 invalidKey', async () => {
    const res = await t.api('/me', { key: `abk_ABCDEFGHIJKL_${'x'.repeat(43)}` });
    expectProblem(res, 401, 'invalidKey');
  });

  it('refuses a real prefix with the wrong secret with 401 invalidKey', async () => {
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    const forged = `${key.slice(0, 17)}${'A'.repeat(43)}`;
    const res = await t.api('/me', { key: forged });
    expectProblem(res, 401, 'invalidKey');
  });

  it('refuses an unknown key sent in X-Api-Key with 401 invalidKey', async () => {
    const res = await t.api('/me', { headers: { 'x-api-key': `abk_ABCDEFGHIJKL_${'y'.repeat(43)}` } });
    expectProblem(res, 401, 'invalidKey');
  });
});

describe('401 keyRevoked', () => {
  it('refuses a revoked key on the very next call with 401 keyRevoked', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard' });
    expect((await t.api('/me', { key: made.key })).status).toBe(200);
    expect((await t.api('/events', { key: made.key })).status).toBe(200);
    await revokeKey(t.server.services.db, t.server.services.clock, made.apiKeyId);
    expectProblem(await t.api('/me', { key: made.key }), 401, 'keyRevoked');
    expectProblem(await t.api('/events', { key: made.key }), 401, 'keyRevoked');
  });

  it('refuses a revoked key on MCP too, even on a client connected before the revocation', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard' });
    const client = await t.mcp(made.key);
    const before = await client.callTool({ name: 'get_me', arguments: {} });
    expect(before.isError).toBeFalsy();
    await revokeKey(t.server.services.db, t.server.services.clock, made.apiKeyId);
    await expect(client.callTool({ name: 'get_me', arguments: {} })).rejects.toThrow(/401|keyRevoked/);
    await client.close();
  });
});

describe('401 keyExpired', () => {
  it('refuses a key past its expiry date with 401 keyExpired, and accepts it the day before', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard', expires: '30' });
    const me = await t.api('/me', { key: made.key });
    expect(me.status).toBe(200);
    const expires = Date.parse(me.body.expiresUtc);
    expect(expires - clock.now().getTime()).toBeGreaterThan(29.9 * 86_400_000);
    expect(expires - clock.now().getTime()).toBeLessThanOrEqual(30 * 86_400_000);
    const day = 86_400_000;
    try {
      clock.advance(29 * day);
      expect((await t.api('/me', { key: made.key })).status).toBe(200);
      clock.advance(2 * day);
      expectProblem(await t.api('/me', { key: made.key }), 401, 'keyExpired');
      expectProblem(await t.api('/events', { key: made.key }), 401, 'keyExpired');
    } finally {
      clock.advance(-31 * day);
    }
  });

  it('never expires a key made with expiry never', async () => {
    const made = await t.key({ workspaceId, preset: 'dashboard', expires: 'never' });
    const year = 365 * 86_400_000;
    try {
      clock.advance(10 * year);
      const me = await t.api('/me', { key: made.key });
      expect(me.status).toBe(200);
      expect(me.body.expiresUtc).toBeNull();
    } finally {
      clock.advance(-10 * year);
    }
  });

  it('offers the expiry choices 30, 90, 180, 365 days or never, and no other', async () => {
    for (const days of [30, 90, 180, 365]) {
      const made = await t.key({ workspaceId, preset: 'dashboard', expires: String(days) });
      const me = await t.api('/me', { key: made.key });
      const inDays = (Date.parse(me.body.expiresUtc) - clock.now().getTime()) / 86_400_000;
      expect(Math.round(inDays)).toBe(days);
    }
    await expect(t.key({ workspaceId, preset: 'dashboard', expires: '7' })).rejects.toThrow(/expires/);
  });
});
