// What a client may register (RFC 7591) over HTTPS: redirect URIs over plain http only on the
// loopback (RFC 8252 §7.3), https anywhere, an app's private-use scheme as a native client; and the
// authorization code flow only, never the implicit flow (OAuth 2.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { registrationRequest } from '../support/sign-in';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

describe('redirect URIs', () => {
  it('refuses http on a host other than the loopback with invalid_redirect_uri', async () => {
    for (const uri of [
      'http://app.example/callback',
      'http://192.168.1.20/cb',
      'http://127.0.0.1.nip.io/cb',
    ]) {
      const answer = await registrationRequest(t, { redirect_uris: [uri] });
      expect(answer, uri).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    }
    // A client with a secret is held to the same rule.
    const confidential = await registrationRequest(t, {
      redirect_uris: ['http://app.example/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(confidential).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
  });

  it('takes http on the loopback (127.0.0.1, [::1], localhost) and https anywhere', async () => {
    for (const uri of [
      'http://127.0.0.1:33418/callback',
      'http://[::1]:33418/callback',
      'http://localhost:33418/callback',
      'https://app.example/callback',
    ]) {
      const answer = await registrationRequest(t, { redirect_uris: [uri] });
      expect(answer.status, `${uri}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(answer.body.redirect_uris).toEqual([uri]);
    }
  });

  it('takes an app’s private-use scheme from a native client', async () => {
    const answer = await registrationRequest(t, {
      application_type: 'native',
      redirect_uris: ['com.example.app:/callback'],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });
});

describe('flows', () => {
  it('refuses a client registering for the implicit flow with invalid_client_metadata', async () => {
    const implicit = [
      { response_types: ['token'], grant_types: ['implicit'] },
      { response_types: ['id_token'], grant_types: ['implicit'] },
      { response_types: ['code id_token'], grant_types: ['authorization_code', 'implicit'] },
      { response_types: ['code'], grant_types: ['authorization_code', 'implicit'] },
    ];
    for (const metadata of implicit) {
      const answer = await registrationRequest(t, { ...metadata, redirect_uris: ['https://app.example/cb'] });
      expect(answer, JSON.stringify(metadata)).toMatchObject({
        status: 400,
        body: { error: 'invalid_client_metadata' },
      });
    }
  });

  it('names only the code flow in its metadata', async () => {
    const res = await t.fetch(`${t.server.publicOrigin}/.well-known/oauth-authorization-server`);
    const metadata = (await res.json()) as Record<string, string[]>;
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.grant_types_supported).not.toContain('implicit');
  });
});
