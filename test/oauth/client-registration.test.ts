// What a client may register (RFC 7591) over HTTPS: redirect URIs over plain http only on the
// loopback (RFC 8252 §7.3), https anywhere, an app's private-use scheme as a native client. The
// flows it may register for: code-flow-only.test.ts.
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
