// Assistant sign-in (issue 11, item 1), driven over HTTPS as a client and a browser would: the
// MCP endpoint's 401 names its resource metadata (RFC 9728); the metadata names the authorization
// server, whose metadata (RFC 8414) is found; a client registers itself (RFC 7591); the
// authorization request with PKCE (S256) leads to the sign-in page, where the organiser gives an
// API key and chooses scopes (never more than the key holds); the code is exchanged for a JWT access
// token bound to the MCP server and a refresh token, which rotates; the token works at /mcp with the
// scopes chosen, and answers wrongAudience at the REST API.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import {
  authorizeUrl,
  Browser,
  challengeOf,
  claimsOf,
  exchangeCode,
  redirectUri,
  registerClient,
  signInAndConsent,
  tokenRequest,
} from '../support/sign-in';

let t: TestServer;
let workspaceId: string;
let origin: string;

beforeAll(async () => {
  t = await startTestServer();
  origin = t.server.publicOrigin;
  ({ workspaceId } = await t.workspace('Sign-in workspace', true));
});
afterAll(async () => t.close());

/** The whole sign-in in a browser; answers the code the client receives. */
async function signIn(options: {
  clientId: string;
  key: string;
  scopes: string[];
  resource?: string;
  challenge: string;
}) {
  const authorize = authorizeUrl(t, options.clientId, {
    scope: ['offline_access', 'events:read', 'orders:read'].join(' '),
    resource: options.resource ?? `${origin}/mcp`,
    code_challenge: options.challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
  });
  const back = await signInAndConsent(t, authorize, {
    key: options.key,
    scopes: options.scopes,
    clientName: 'Test Assistant',
  });
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  expect(back.searchParams.get('state')).toBe('xyz');
  return back.searchParams.get('code')!;
}

describe('discovery', () => {
  it('starts at the 401 of /mcp, whose WWW-Authenticate names the resource metadata', async () => {
    const res = await t.fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    const header = res.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)![1]!;
    expect(metadataUrl).toBe(`${origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await t.fetch(metadataUrl)).json()) as any;
    expect(metadata).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    expect(metadata.scopes_supported).toContain('events:read');
    const server = (await (await t.fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as any;
    expect(server).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
    });
    expect(server.code_challenge_methods_supported).toEqual(['S256']);
  });
});

describe('the sign-in', () => {
  it('gives a token for the MCP server with the scopes chosen, never more than the key holds', async () => {
    const { apiKeyId, key } = await t.key({
      workspaceId,
      scopes: ['events:read', 'orders:read'],
      expires: 'never',
    });
    const clientId = await registerClient(t);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = challengeOf(verifier);
    // people:read is not the key's: it cannot be granted even when ticked.
    const code = await signIn({ clientId, key, scopes: ['events:read', 'people:read'], challenge });
    const issued = await exchangeCode(t, { code, clientId, verifier, resource: `${origin}/mcp` });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.refresh_token).toEqual(expect.any(String));
    expect(claimsOf(issued.body.access_token)).toMatchObject({
      iss: origin,
      aud: `${origin}/mcp`,
      sub: apiKeyId,
      scope: 'events:read',
    });

    const client = await t.mcp(issued.body.access_token);
    expect((await callTool(client, 'list_events', {})).isError).toBe(false);
    const events = (await callTool(client, 'list_events', {})).data.data;
    expect(await callTool(client, 'list_orders', { eventId: events[0].eventId })).toMatchObject({
      isError: true,
      data: { code: 'missingScope' },
    });
    await client.close();
    expectProblem(await t.api('/me', { key: issued.body.access_token }), 401, 'wrongAudience');

    // The refresh token rotates: the new one works, the old one is spent.
    const refreshed = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: issued.body.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    const again = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: issued.body.refresh_token,
      client_id: clientId,
    });
    expect(again.status).toBe(400);
  });

  it('signs into the demonstration workspace without a key of one’s own, read-only', async () => {
    const clientId = await registerClient(t);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = challengeOf(verifier);
    const code = await signIn({
      clientId,
      key: 'demonstration',
      scopes: ['events:read', 'orders:read'],
      challenge,
    });
    const issued = await exchangeCode(t, { code, clientId, verifier });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const client = await t.mcp(issued.body.access_token);
    const me = await callTool(client, 'get_me', {});
    expect(me.data).toMatchObject({ workspaceName: expect.stringMatching(/demonstration/i) });
    expect(me.data.scopes.sort()).toEqual(['events:read', 'orders:read']);
    await client.close();
  });

  it('gives a token for the REST API when the client asks for that resource', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const clientId = await registerClient(t);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = challengeOf(verifier);
    const resource = `${origin}/api/v1`;
    const code = await signIn({ clientId, key, scopes: ['events:read'], challenge, resource });
    const issued = await exchangeCode(t, { code, clientId, verifier, resource });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect((await t.api('/events', { key: issued.body.access_token })).status).toBe(200);
    const mcp = await t.fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${issued.body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect(await mcp.json()).toMatchObject({ code: 'wrongAudience' });
  });

  it('refuses an authorization request without PKCE', async () => {
    const clientId = await registerClient(t);
    const url = authorizeUrl(t, clientId, { scope: 'events:read', resource: `${origin}/mcp` });
    const res = await t.fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('answers a wrong API key on the sign-in page, and signs nothing in', async () => {
    const clientId = await registerClient(t);
    const browser = new Browser(t);
    const url = authorizeUrl(t, clientId, {
      scope: 'events:read',
      resource: `${origin}/mcp`,
      code_challenge: challengeOf('v'.repeat(43)),
      code_challenge_method: 'S256',
    });
    const start = await browser.follow(await browser.get(url));
    const uid = /\/oauth\/sign-in\/([^/]+)/.exec(start.url)![1]!;
    const res = await browser.post(`${origin}/oauth/sign-in/${uid}/key`, { key: 'abk_000000000000_nope' });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('role="alert"');
  });
});

describe('client registration', () => {
  it('is bounded per source address: past 20 a minute, 429 rateLimited', async () => {
    let answer: Response | undefined;
    for (let i = 0; i < 25; i++) {
      answer = await t.fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: `Many ${i}`,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
        }),
      });
      if (answer.status !== 201) break;
    }
    expect(answer!.status).toBe(429);
    expect(await answer!.json()).toMatchObject({ code: 'rateLimited' });
  });
});

describe('a client named by its metadata document (client ID metadata document)', () => {
  let receiver: Receiver;
  let open: TestServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Loopback is private: only a deployment that allows private addresses (tests) fetches from it.
    open = await startTestServer({ delivery: { allowPrivate: true } });
  });
  afterAll(async () => {
    await open.close();
    await receiver.close();
  });

  const request = (server: TestServer, clientId: string) =>
    authorizeUrl(server, clientId, {
      scope: 'events:read',
      code_challenge: challengeOf('w'.repeat(43)),
      code_challenge_method: 'S256',
    });

  it('is fetched and used without registration', async () => {
    const clientId = receiver.url('/assistant.json');
    receiver.reply(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        client_name: 'Metadata Assistant',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    }));
    const res = await open.fetch(request(open, clientId), { redirect: 'manual' });
    const location = String(res.headers.get('location') ?? `${res.status} ${await res.text()}`);
    expect(location, location).toMatch(/\/oauth\/sign-in\//);
    expect(receiver.received.some((r) => r.path === '/assistant.json')).toBe(true);
  });

  it('is never fetched from a private address where the deployment does not allow them', async () => {
    const before = receiver.received.length;
    const res = await t.fetch(request(t, receiver.url('/assistant.json')), { redirect: 'manual' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(receiver.received.length).toBe(before);
  });
});
