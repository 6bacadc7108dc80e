// Access tokens (spec Authentication 7; issue 11, item 2): one verifier for REST and MCP. A token is
// a JWT signed with the data folder's keys and bound to one audience: REST takes a REST token like a
// key, MCP an MCP token; a token for the other audience answers 401 wrongAudience, an expired one
// 401 keyExpired, one signed elsewhere 401 invalidKey; revoking the key ends its tokens on the next
// call; a token never holds more scopes than its key; the key's rate counter and activity count its
// tokens' calls with its own; a rotation keeps the previous key verifying.
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyActivity, revokeKey } from '../../core/admin/api-keys';
import { openServices } from '../../src/services';
import { loadSigningKeys, rotateSigningKeys } from '../../src/signing-keys';
import { accessToken } from '../support/access-tokens';
import { expectProblem } from '../support/fixtures';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { databaseFor } from '../support/test-store';

let t: TestServer;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Token workspace', true));
});
afterAll(async () => t.close());

const newKey = (scopes: string[], rate?: number) =>
  t.key({ workspaceId, scopes: scopes as never, expires: 'never', ratePerMinute: rate });

/** A raw MCP initialize with a bearer credential: the status and body of the answer. */
async function mcpInitialize(token: string) {
  const res = await t.postMcp(token, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('a token for the REST API', () => {
  it('is taken like the key it was issued for, with the scopes granted', async () => {
    const { apiKeyId } = await newKey(['events:read', 'orders:read']);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
    const me = await t.api('/me', { key: token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.scopes).toEqual(['events:read']);
    expect((await t.api('/events', { key: token })).status).toBe(200);
    // orders:read was not granted to the token, though its key holds it.
    const events = (await t.api('/events', { key: token })).body.data;
    expectProblem(await t.api(`/events/${events[0].eventId}/orders`, { key: token }), 403, 'missingScope');
  });

  it('never holds more than its key: a scope the key lacks is not granted', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const token = await accessToken(t, {
      keyId: apiKeyId,
      audience: 'rest',
      scopes: ['events:read', 'orders:read', 'people:read'],
    });
    expect((await t.api('/me', { key: token })).body.scopes).toEqual(['events:read']);
  });

  it('is refused at the MCP server with 401 wrongAudience', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
    const answer = await mcpInitialize(token);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'wrongAudience' });
  });
});

describe('a token for the MCP server', () => {
  it('connects an MCP client and calls tools with the scopes granted', async () => {
    const { apiKeyId } = await newKey(['events:read', 'orders:read']);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'mcp', scopes: ['events:read'] });
    const client = await t.mcp(token);
    const events = await callTool(client, 'list_events', {});
    expect(events.isError, JSON.stringify(events.data)).toBe(false);
    const orders = await callTool(client, 'list_orders', { eventId: events.data.data[0].eventId });
    expect(orders).toMatchObject({ isError: true, data: { code: 'missingScope' } });
    await client.close();
  });

  it('is refused by the REST API with 401 wrongAudience', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'mcp', scopes: ['events:read'] });
    const res = expectProblem(await t.api('/me', { key: token }), 401, 'wrongAudience');
    expect(res.detail).toContain('/api/v1');
  });
});

describe('tokens refused', () => {
  it('once expired: 401 keyExpired', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const token = await accessToken(t, {
      keyId: apiKeyId,
      audience: 'rest',
      scopes: ['events:read'],
      expiresIn: -5,
    });
    expectProblem(await t.api('/me', { key: token }), 401, 'keyExpired');
  });

  it('signed with a key that is not the deployment’s: 401 invalidKey', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signWith = { ...(await exportJWK(privateKey)), kid: 'stranger' };
    const token = await accessToken(t, {
      keyId: apiKeyId,
      audience: 'rest',
      scopes: ['events:read'],
      signWith,
    });
    expectProblem(await t.api('/me', { key: token }), 401, 'invalidKey');
    const [head, body, signature] = (
      await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] })
    ).split('.');
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), scope: 'orders:read' }),
    ).toString('base64url');
    expectProblem(await t.api('/me', { key: `${head}.${widened}.${signature}` }), 401, 'invalidKey');
  });

  it('of a revoked key, from the very next call: 401 keyRevoked', async () => {
    const { apiKeyId } = await newKey(['events:read']);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
    expect((await t.api('/me', { key: token })).status).toBe(200);
    await revokeKey(t.server.services.db, t.server.services.clock, apiKeyId);
    expectProblem(await t.api('/me', { key: token }), 401, 'keyRevoked');
    expect(
      (
        await mcpInitialize(
          await accessToken(t, { keyId: apiKeyId, audience: 'mcp', scopes: ['events:read'] }),
        )
      ).status,
    ).toBe(401);
  });
});

describe('a key and its tokens', () => {
  it('share one rate counter and one activity log', async () => {
    const { apiKeyId, key } = await newKey(['events:read'], 3);
    const token = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
    expect((await t.api('/me', { key })).status).toBe(200);
    expect((await t.api('/me', { key: token })).status).toBe(200);
    expect((await t.api('/me', { key })).status).toBe(200);
    expectProblem(await t.api('/me', { key: token }), 429, 'rateLimited');
    await t.server.services.activity.flush();
    const activity = await keyActivity(t.server.services.db, apiKeyId, 10);
    expect(activity.length).toBe(4);
  });
});

describe('signing keys', () => {
  it('live in the data folder; after a rotation the previous key still verifies', async () => {
    const dir = t.dataDir;
    const before = await loadSigningKeys(dir);
    const { apiKeyId } = await newKey(['events:read']);
    const oldToken = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
    const rotated = await rotateSigningKeys(dir);
    expect(rotated.verifyingKids).toEqual([rotated.signingKid, before.keys[0]!.kid]);
    // The service reads its keys when it starts: a new start verifies both.
    const opened = await openServices({ dataDir: dir, database: await databaseFor(dir), ratePerMinute: 600 });
    try {
      opened.services.tokens.issuer = t.server.publicOrigin;
      const { verifyToken } = await import('../../core/platform/pipeline/authenticate');
      const newToken = await accessToken(t, { keyId: apiKeyId, audience: 'rest', scopes: ['events:read'] });
      for (const token of [oldToken, newToken])
        expect((await verifyToken(opened.services, token, 'rest')).ok).toBe(true);
      expect((await verifyToken(opened.services, newToken, 'mcp')).ok).toBe(false);
    } finally {
      await opened.close();
    }
  });
});
