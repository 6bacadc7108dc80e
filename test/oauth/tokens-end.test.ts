// When the tokens of an assistant's sign-in end before their time, over HTTPS as a client sees it:
// a code used twice revokes what it first gave (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3), the access
// token included, though a JWT is kept nowhere (it names its grant, which the verifier reads); a
// refresh token revoked at /oauth/revoke ends its access tokens too (RFC 7009 §2.1); and a refresh
// token of a key revoked or expired since is refused with invalid_grant, minting nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../core/admin/api-keys';
import { startTestServer, type TestServer } from '../support/server';
import { codeFor, exchangeCode, registerClient, tokenRequest } from '../support/sign-in';

let t: TestServer;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Token end workspace', true));
});
afterAll(async () => t.close());

/** A key, a client and a code exchanged: the key's id, the client and the tokens issued. */
async function signedIn() {
  const { apiKeyId, key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
  const clientId = await registerClient(t);
  const verifier = randomBytes(32).toString('base64url');
  const code = await codeFor(t, { clientId, key, scopes: ['events:read'], verifier });
  const issued = await exchangeCode(t, { code, clientId, verifier });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return { apiKeyId, clientId, code, verifier, tokens: issued.body };
}

/** What /mcp answers an access token: the status, and the problem's code when refused. */
async function atMcp(accessToken: string) {
  const res = await t.postMcp(accessToken, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const body = await res.text();
  return { status: res.status, code: res.status === 401 ? JSON.parse(body).code : undefined };
}

const refresh = (clientId: string, refreshToken: string) =>
  tokenRequest(t, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

describe('an authorization code used twice', () => {
  it('is refused with invalid_grant, and revokes the access and refresh tokens it first gave', async () => {
    const { clientId, code, verifier, tokens } = await signedIn();
    expect((await atMcp(tokens.access_token)).status).toBe(200);

    const again = await exchangeCode(t, { code, clientId, verifier });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    expect(await atMcp(tokens.access_token)).toEqual({ status: 401, code: 'invalidKey' });
    expect(await refresh(clientId, tokens.refresh_token)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });
});

describe('a refresh token revoked at /oauth/revoke', () => {
  it('ends the access tokens of its sign-in too', async () => {
    const { clientId, tokens } = await signedIn();
    const res = await t.fetch(`${t.server.publicOrigin}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await atMcp(tokens.access_token)).toEqual({ status: 401, code: 'invalidKey' });
  });
});

describe('a refresh token of a key that has ended', () => {
  it('refuses a refresh token of a revoked key with invalid_grant', async () => {
    const { apiKeyId, clientId, tokens } = await signedIn();
    await revokeKey(t.server.services.db, t.server.services.clock, apiKeyId);
    const refused = await refresh(clientId, tokens.refresh_token);
    expect(refused, JSON.stringify(refused.body)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(refused.body.access_token).toBeUndefined();
  });

  it('refuses a refresh token of an expired key with invalid_grant', async () => {
    const { apiKeyId, clientId, tokens } = await signedIn();
    const past = new Date(t.server.services.clock.now().getTime() - 60_000).toISOString();
    await t.server.services.db
      .updateTable('api_keys')
      .set({ expires_utc: past })
      .where('id', '=', apiKeyId)
      .execute();
    const refused = await refresh(clientId, tokens.refresh_token);
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(refused.body.access_token).toBeUndefined();
  });
});
