// The whole assistant sign-in as an MCP client does it, with the official SDK's client auth
// provider against the running server over HTTPS: the first connection meets 401 and its resource
// metadata, the SDK discovers the authorization server, registers itself, sends the organiser to the
// sign-in page with PKCE (S256), the organiser signs in with a key and ticks fewer scopes than it
// holds, the SDK exchanges the code, and tools/call works with the scopes granted. Then the token's
// end: expiry answers keyExpired, and revoking the key ends the token on the very next call.

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../core/admin/api-keys';
import { expectProblem } from '../support/fixtures';
import { callTool } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { redirectUri, signInAndConsent } from '../support/sign-in';

/** What an assistant keeps between runs: its registration, tokens and the PKCE verifier. */
class AssistantAuth implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = redirectUri;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'SDK Assistant',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let origin: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  origin = t.server.publicOrigin;
  ({ workspaceId } = await t.workspace('SDK sign-in workspace', true));
});
afterAll(async () => t.close());

function connect(auth: AssistantAuth) {
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    authProvider: auth,
    fetch: t.fetch,
  });
  return { transport, client: new Client({ name: 'sdk-assistant', version: '1.0.0' }) };
}

describe('the MCP SDK client signs in', () => {
  const auth = new AssistantAuth();
  let apiKeyId: string;

  it('discovers, registers, sends the organiser to sign in, and exchanges the code', async () => {
    let key: string;
    ({ apiKeyId, key } = await t.key({
      workspaceId,
      scopes: ['events:read', 'orders:read', 'attendees:read'],
      expires: 'never',
    }));
    const first = connect(auth);
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.client?.client_id, 'registered itself').toEqual(expect.any(String));
    const url = auth.authorizationUrl!;
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${origin}/mcp`);

    // The organiser grants less than the key holds: orders:read is left unticked.
    const back = await signInAndConsent(t, url.toString(), {
      key,
      scopes: ['events:read', 'attendees:read'],
      clientName: 'SDK Assistant',
    });
    expect(back.searchParams.get('state')).toBe(url.searchParams.get('state'));
    await first.transport.finishAuth(back.searchParams.get('code')!);
    expect(auth.saved?.access_token).toEqual(expect.any(String));
    expect(auth.saved?.refresh_token).toEqual(expect.any(String));
    await first.transport.close();
  });

  it('calls tools with the scopes granted, and no others', async () => {
    const { client, transport } = connect(auth);
    await client.connect(transport);
    const me = await callTool(client, 'get_me', {});
    expect(me.data.scopes.sort()).toEqual(['attendees:read', 'events:read']);
    const events = await callTool(client, 'list_events', {});
    expect(events.isError).toBe(false);
    const eventId = events.data.data[0].eventId;
    expect(await callTool(client, 'list_orders', { eventId })).toMatchObject({
      isError: true,
      data: { code: 'missingScope', scope: 'orders:read' },
    });
    await client.close();
  });

  it('is bound to the MCP server: the REST API answers wrongAudience', async () => {
    expectProblem(await t.api('/me', { key: auth.saved!.access_token }), 401, 'wrongAudience');
  });

  it('answers keyExpired once the token has expired', async () => {
    const rawCall = () => t.postMcp(auth.saved!.access_token);
    const before = await rawCall();
    expect(before.status).toBe(200);
    await before.body?.cancel();
    clock.advance(61 * 60_000); // the access token lives one hour
    try {
      const res = await rawCall();
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'keyExpired' });
    } finally {
      clock.advance(-61 * 60_000);
    }
  });

  it('ends the token on the very next call once its key is revoked', async () => {
    const { client, transport } = connect(auth);
    await client.connect(transport);
    expect((await callTool(client, 'get_me', {})).isError).toBe(false);
    await revokeKey(t.server.services.db, t.server.services.clock, apiKeyId);
    const res = await t.postMcp(auth.saved!.access_token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_me', arguments: {} },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'keyRevoked' });
    await client.close().catch(() => undefined);
  });
});
