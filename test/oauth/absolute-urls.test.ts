// The sign-in's absolute URLs never come from the request's Host header (or an absolute request
// target), which anyone can set: the authorization server's metadata, a registration's
// registration_client_uri and the address a finished sign-in returns to all name the service's
// public origin (src/http/public-origin.ts): --public-url if set; else, behind a trusted proxy, what
// the proxy forwards; else the listening origin.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField } from '../../core/platform/form-tokens';
import { formTokenOf } from '../support/page-forms';
import { cookiesOf, type RawAnswer, rawHttps } from '../support/raw-https';
import { startTestServer, type TestServer } from '../support/server';
import { challengeOf, redirectUri, registerClient } from '../support/sign-in';

const forged = { host: 'evil.example' };
const endpoints = [
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'registration_endpoint',
  'revocation_endpoint',
  'pushed_authorization_request_endpoint',
  'end_session_endpoint',
];

/** Every absolute URL in a text: none may name another origin. */
const urlsIn = (text: string) => [...text.matchAll(/https?:\/\/[^"'\s,;]+/g)].map(([url]) => url);

function expectOnly(origin: string, answer: RawAnswer) {
  expect(answer.text).not.toContain('evil.example');
  for (const url of urlsIn(answer.text)) expect(new URL(url).origin, url).toBe(origin);
}

async function metadata(t: TestServer, path: string) {
  const answer = await rawHttps(t, path, { headers: forged });
  expect(answer.status, answer.text).toBe(200);
  return { answer, body: JSON.parse(answer.text) as Record<string, string> };
}

describe('speaking TLS itself', () => {
  let t: TestServer;
  let origin: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer();
    origin = t.server.publicOrigin;
    const { workspaceId } = await t.workspace('Origin workspace', true);
    ({ key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' }));
  });
  afterAll(async () => t.close());

  it('names only its own origin in its metadata, whatever Host the request names', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const { answer, body } = await metadata(t, path);
      for (const name of endpoints) expect(body[name], name).toMatch(new RegExp(`^${origin}/oauth/`));
      expectOnly(origin, answer);
    }
  });

  it('names only its own origin in a registration answer (registration_client_uri)', async () => {
    // Named by the Host header, or by an absolute request target (POST https://evil.example/…).
    for (const path of ['/oauth/register', 'https://evil.example/oauth/register']) {
      const answer = await rawHttps(t, path, {
        method: 'POST',
        headers: { ...forged, 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Forged Host',
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(answer.status, answer.text).toBe(201);
      const body = JSON.parse(answer.text);
      expect(body.registration_client_uri).toBe(`${origin}/oauth/register/${body.client_id}`);
      expectOnly(origin, { ...answer, text: answer.text.replace(redirectUri, '') });
    }
  });

  it('returns a sign-in requested with a forged Host to its own origin', async () => {
    const clientId = await registerClient(t);
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'events:read',
      resource: `${origin}/mcp`,
      code_challenge: challengeOf('h'.repeat(43)),
      code_challenge_method: 'S256',
    });
    const start = await rawHttps(t, `/oauth/authorize?${query}`, { headers: forged });
    expect(start.status, start.text).toBe(303);
    const signIn = String(start.headers.location);
    expect(signIn).not.toContain('evil.example');
    const uid = /\/oauth\/sign-in\/([^/?]+)/.exec(signIn)![1]!;
    // As curl does: no Origin, so the sign-in page's form token is sent back.
    const page = await rawHttps(t, `/oauth/sign-in/${uid}`, {
      headers: { ...forged, cookie: cookiesOf(start) },
    });
    const afterKey = await rawHttps(t, `/oauth/sign-in/${uid}/key`, {
      method: 'POST',
      headers: {
        ...forged,
        cookie: cookiesOf(start),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ key, [formTokenField]: formTokenOf(page.text)! }).toString(),
    });
    expect(afterKey.status, afterKey.text).toBe(303);
    expect(String(afterKey.headers.location)).toMatch(new RegExp(`^${origin}/oauth/authorize/`));
  });
});

describe('with --public-url', () => {
  let t: TestServer;
  const publicUrl = 'https://events.example.org';

  beforeAll(async () => {
    t = await startTestServer({ publicUrl });
  });
  afterAll(async () => t.close());

  it('names the public URL in its metadata, not the Host nor the listening address', async () => {
    const { answer, body } = await metadata(t, '/.well-known/oauth-authorization-server');
    expect(body.issuer).toBe(publicUrl);
    for (const name of endpoints) expect(body[name], name).toMatch(new RegExp(`^${publicUrl}/oauth/`));
    expectOnly(publicUrl, answer);
  });
});

describe('behind a trusted proxy (--trust-proxy)', () => {
  let t: TestServer;
  const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'events.example.org' };

  beforeAll(async () => {
    t = await startTestServer({ trustProxy: true });
  });
  afterAll(async () => t.close());

  // Tokens carry one issuer, so the sign-in cannot follow each request's forwarded host: without
  // --public-url it stays at the listening origin, its endpoints under the issuer it names.
  it('keeps every endpoint under the one issuer whatever host the proxy forwards', async () => {
    const base = t.server.origin.replace('https:', 'http:');
    const res = await t.fetch(`${base}/.well-known/oauth-authorization-server`, { headers: proxied });
    const body = (await res.json()) as Record<string, string>;
    expect(body.issuer).toBe(t.server.publicOrigin);
    for (const name of endpoints) expect(body[name], name).toMatch(new RegExp(`^${body.issuer}/oauth/`));
    const registered = await t.fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { ...proxied, 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
    });
    const client = (await registered.json()) as Record<string, string>;
    expect(String(client.registration_client_uri).startsWith(`${body.issuer}/oauth/register/`)).toBe(true);
    expect(JSON.stringify([body, client])).not.toContain('events.example.org');
  });
});

describe('behind a trusted proxy with --public-url', () => {
  let t: TestServer;
  const publicUrl = 'https://events.example.org';

  beforeAll(async () => {
    t = await startTestServer({ trustProxy: true, publicUrl });
  });
  afterAll(async () => t.close());

  it('names the public URL, the issuer its tokens carry', async () => {
    const base = t.server.origin.replace('https:', 'http:');
    const res = await t.fetch(`${base}/.well-known/oauth-authorization-server`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'other.example' },
    });
    const body = (await res.json()) as Record<string, string>;
    expect(body.issuer).toBe(publicUrl);
    for (const name of endpoints) expect(body[name], name).toMatch(new RegExp(`^${publicUrl}/oauth/`));
  });
});
