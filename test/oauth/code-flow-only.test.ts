// The authorization server offers one way in (issue 24, item 6), checked over HTTPS as a client
// meets it: its metadata (RFC 8414, and OpenID discovery) names only the authorization code with
// PKCE S256 and refresh tokens; registration (RFC 7591) refuses any other grant or response type
// with invalid_client_metadata; the authorization endpoint refuses a request without PKCE S256 and
// any response type but code.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { authorizeUrl, challengeOf, registerClient, registrationRequest } from '../support/sign-in';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

describe('the metadata', () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    it(`${path} offers the code with PKCE S256 and refresh tokens, nothing else`, async () => {
      const res = await t.fetch(`${t.server.publicOrigin}${path}`);
      expect(res.status).toBe(200);
      const metadata = (await res.json()) as Record<string, unknown>;
      expect(metadata.response_types_supported).toEqual(['code']);
      expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
      expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      // No OpenID identity: no openid scope, no ID token fields, answers in the query only.
      expect(metadata.scopes_supported).not.toContain('openid');
      expect(metadata.response_modes_supported).toEqual(['query']);
      for (const field of Object.keys(metadata)) expect(field).not.toMatch(/^id_token|^claims/);
      const text = JSON.stringify(metadata);
      // "none" is a client authentication method there (public clients), so it is not searched for.
      for (const word of [
        '"id_token"',
        '"token"',
        'implicit',
        '"plain"',
        'device_code',
        'client_credentials',
      ])
        expect(text, word).not.toContain(word);
    });
  }
});

describe('registration', () => {
  // Registration is bounded to 20 a minute from one address: each test here has a server of its own.
  let r: TestServer;
  beforeEach(async () => {
    r = await startTestServer();
  });
  afterEach(async () => r.close());
  const register = (metadata: Record<string, unknown>) =>
    registrationRequest(r, { ...metadata, redirect_uris: ['https://app.example/cb'] });

  it('refuses every grant but the authorization code and refresh tokens with invalid_client_metadata', async () => {
    for (const grant of [
      'implicit',
      'client_credentials',
      'password',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:openid:params:grant-type:ciba',
    ]) {
      for (const grants of [[grant], ['authorization_code', 'refresh_token', grant]]) {
        const answer = await register({ grant_types: grants });
        expect(answer, JSON.stringify(grants)).toMatchObject({
          status: 400,
          body: { error: 'invalid_client_metadata' },
        });
      }
    }
  });

  it('refuses every response type but code, an empty list too, with invalid_client_metadata', async () => {
    for (const types of [
      ['token'],
      ['id_token'],
      ['none'],
      ['code id_token'],
      ['code token'],
      ['code', 'token'],
      [],
    ]) {
      const answer = await register({
        response_types: types,
        grant_types: ['authorization_code', 'refresh_token'],
      });
      expect(answer, JSON.stringify(types)).toMatchObject({
        status: 400,
        body: { error: 'invalid_client_metadata' },
      });
    }
    const onlyRefresh = await register({ response_types: [], grant_types: ['refresh_token'] });
    expect(onlyRefresh).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(onlyRefresh.body.error_description).toContain('response_types must be ["code"]');
  });

  it('takes the code flow, with or without naming it', async () => {
    for (const metadata of [
      { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
      { grant_types: ['authorization_code'] },
      { grant_types: undefined, response_types: undefined },
    ]) {
      const answer = await register(metadata);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.response_types).toEqual(['code']);
    }
  });
});

describe('the authorization request', () => {
  const challenge = challengeOf('v'.repeat(43));

  /** The error the browser is sent back with (the client's redirect address, query or fragment). */
  async function errorOf(clientId: string, params: Record<string, string>) {
    const res = await t.fetch(authorizeUrl(t, clientId, { scope: 'events:read', ...params }), {
      redirect: 'manual',
    });
    const location = new URL(res.headers.get('location') ?? 'about:blank');
    const answer = new URLSearchParams(location.search || location.hash.slice(1));
    return answer.get('error');
  }

  it('refuses one without PKCE S256: none, plain, or a challenge without its method', async () => {
    const clientId = await registerClient(t);
    expect(await errorOf(clientId, {})).toBe('invalid_request');
    expect(await errorOf(clientId, { code_challenge: 'p'.repeat(43), code_challenge_method: 'plain' })).toBe(
      'invalid_request',
    );
    expect(await errorOf(clientId, { code_challenge: challenge })).toBe('invalid_request');
    expect(await errorOf(clientId, { code_challenge_method: 'S256' })).toBe('invalid_request');
  });

  it('refuses any response type but code', async () => {
    const clientId = await registerClient(t);
    for (const type of ['token', 'id_token', 'none', 'code id_token', 'code token']) {
      const error = await errorOf(clientId, {
        response_type: type,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(error, type).toBe('unsupported_response_type');
    }
  });

  it('sends one with PKCE S256 on to the sign-in page', async () => {
    const clientId = await registerClient(t);
    const res = await t.fetch(
      authorizeUrl(t, clientId, {
        scope: 'events:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(res.headers.get('location')).toMatch(/\/oauth\/sign-in\//);
  });
});
