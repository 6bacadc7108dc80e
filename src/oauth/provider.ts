// The OAuth 2.1 server assistants sign in with (the MCP authorization flow): oidc-provider, kept in
// the service's database, signing with the data folder's keys. It issues authorization codes with
// PKCE (S256 only), refresh tokens that rotate, and JWT access tokens bound by RFC 8707 to one
// resource: {origin}/mcp or {origin}/api/v1. The account is an API key of the workspace: its id is
// the token's subject, and the scopes a token may carry are that key's (core's verifier reads the
// key on every call). Clients use the authorization code flow only: no implicit flow (OAuth 2.1).
import { type Configuration, errors, Provider } from 'oidc-provider';
import { audienceOf, resourceUrl } from '../../core/platform/pipeline/access-tokens';
import { verifyKeyId } from '../../core/platform/pipeline/authenticate';
import { scopes } from '../../core/platform/scopes';
import type { Services } from '../../core/platform/services';
import { checkReceiverUrl } from '../../core/webhooks';
import { OauthStore } from '../../db/oauth-store';
import type { SigningKeys } from '../signing-keys';
import { signInPolicy } from './interaction-policy';
import { checkRedirectUris } from './redirect-uris';
import { checkResponseTypes } from './response-types';

/**
 * Whether a client's metadata document may be fetched: an https address at a public address.
 * Not TESSERA_WEBHOOKS_ALLOW: that list is for the operator's receivers, and a client id is named
 * by whoever signs in; only the test suite's switch lets it reach a private address.
 */
async function mayFetch(clientId: string, allowPrivate: boolean): Promise<boolean> {
  try {
    await checkReceiverUrl(clientId, { allowPrivate });
    return true;
  } catch {
    return false;
  }
}

export function oauthProvider(
  services: Services,
  issuer: string,
  keys: SigningKeys,
  cookieSecret: string,
): Provider {
  const provider = new Provider(issuer, {
    adapter: (model: string) => new OauthStore(services.db, services.clock, model),
    jwks: { keys: keys.keys },
    ...accounts(services),
    ...scopesAndRoutes(),
    ...interactions(),
    ...clients(services),
    features: features(services, issuer),
    ...tokensAndSessions(cookieSecret),
  });
  provider.use(offerOnlyTheCodeFlow);
  return provider;
}

/** The account is an API key: a token's subject is its id, and a key no longer in force is no account. */
function accounts(services: Services): Pick<Configuration, 'findAccount' | 'extraTokenClaims'> {
  return {
    // A key revoked or expired since the sign-in is no account any more: its codes and refresh
    // tokens are refused (invalid_grant) instead of minting tokens the API would refuse.
    findAccount: async (_ctx, id) =>
      (await verifyKeyId(services, id)).ok ? { accountId: id, claims: async () => ({ sub: id }) } : undefined,
    // JWT access tokens are kept nowhere: each names its grant, which core's verifier checks is still
    // in force (a reused code or a revoked refresh token revokes it).
    extraTokenClaims: async (_ctx, token) => ({ grant_id: 'grantId' in token ? token.grantId : undefined }),
  };
}

/** Tessera's scopes, no identity claims, and every endpoint below /oauth. */
function scopesAndRoutes(): Pick<Configuration, 'scopes' | 'claims' | 'routes'> {
  return {
    // Only OAuth, no OpenID Connect identity: the scopes are Tessera's. They are listed here so a
    // client may register with them (MCP clients register with the resource's scopes_supported);
    // tokens carry them for the resource only (see the consent).
    scopes: ['offline_access', ...scopes],
    claims: { openid: ['sub'] },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      registration: '/oauth/register',
      jwks: '/oauth/jwks',
      revocation: '/oauth/revoke',
      end_session: '/oauth/session/end',
      userinfo: '/oauth/userinfo',
      introspection: '/oauth/introspect',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      pushed_authorization_request: '/oauth/request',
      challenge: '/oauth/challenge',
    },
  };
}

/** The sign-in is Tessera's own page; every authorization proves its code verifier (PKCE). */
function interactions(): Pick<Configuration, 'interactions' | 'pkce'> {
  return {
    interactions: { url: (_ctx, interaction) => `/oauth/sign-in/${interaction.uid}`, policy: signInPolicy() },
    pkce: { required: () => true },
  };
}

/** What a client may be: one of the code flow, registered or named by its metadata document. */
function clients(
  services: Services,
): Pick<Configuration, 'fetch' | 'enabledJWA' | 'responseTypes' | 'extraClientMetadata' | 'clientDefaults'> {
  return {
    // oidc-provider's own fetch refuses special-use addresses as well; a deployment that allows
    // private receivers (tests, local development) lets it reach them too. Its fixed 2.5 s limit
    // failed a sign-in on a busy machine: a metadata document gets the time a webhook gets.
    fetch: (url, options) => {
      const patient = { ...options, signal: AbortSignal.timeout(services.delivery.timeoutMs) };
      return fetch(
        url,
        services.delivery.allowPrivate ? ({ ...patient, dispatcher: undefined } as RequestInit) : patient,
      );
    },
    enabledJWA: { requestObjectSigningAlgValues: ['ES256'], idTokenSigningAlgValues: ['ES256'] },
    // Only the code flow: a client registering for the implicit flow (response types token or
    // id_token, grant type implicit) or any grant but the code and refresh tokens is refused with
    // invalid_client_metadata.
    responseTypes: ['code'],
    extraClientMetadata: {
      // Not extra properties: listed so the validator sees every client's redirect URIs and
      // response types (oidc-provider itself takes an empty list of response types).
      properties: ['redirect_uris', 'response_types'],
      validator: (_ctx, key, value) => {
        if (key === 'redirect_uris') checkRedirectUris(value);
        if (key === 'response_types') checkResponseTypes(value);
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
  };
}

/** The features on: registration, metadata documents, revocation and resource indicators; no more. */
function features(services: Services, issuer: string): NonNullable<Configuration['features']> {
  return {
    devInteractions: { enabled: false },
    userinfo: { enabled: false },
    registration: { enabled: true },
    // A client may name itself by the https address of its metadata document (MCP's preferred
    // way): fetched only from public addresses, as webhook receivers are.
    clientIdMetadataDocument: {
      enabled: true,
      ack: 'draft-02',
      allowFetch: async (_ctx, clientId) => mayFetch(clientId, services.delivery.allowPrivate),
    },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // A client that names no resource signs in for the MCP server.
      defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resourceUrl(issuer, 'mcp'),
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (!audienceOf(issuer, indicator)) throw new errors.InvalidTarget();
        return {
          scope: scopes.join(' '),
          accessTokenFormat: 'jwt',
          accessTokenTTL: 3600,
          jwt: { sign: { alg: 'ES256' } },
        };
      },
    },
  };
}

/** Refresh tokens that rotate, signed cookies, and how long each thing lives. */
function tokensAndSessions(
  cookieSecret: string,
): Pick<Configuration, 'issueRefreshToken' | 'rotateRefreshToken' | 'cookies' | 'ttl'> {
  return {
    // Every code exchange gives a refresh token; each refresh gives a new one (rotation).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    cookies: { keys: [cookieSecret] },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 14 * 24 * 3600,
      Grant: 30 * 24 * 3600,
      RefreshToken: 30 * 24 * 3600,
    },
  };
}

/**
 * oidc-provider always describes itself as an OpenID provider too. Tessera issues no identity: its
 * metadata names no openid scope, no ID token and no fragment answer, only what the code flow uses.
 */
async function offerOnlyTheCodeFlow(
  ctx: { oidc?: { route?: string }; body?: unknown },
  next: () => Promise<void>,
): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'discovery' || !ctx.body || typeof ctx.body !== 'object') return;
  const metadata = ctx.body as Record<string, unknown>;
  if (Array.isArray(metadata.scopes_supported))
    metadata.scopes_supported = metadata.scopes_supported.filter((s) => s !== 'openid');
  metadata.response_modes_supported = ['query'];
  for (const field of Object.keys(metadata))
    if (/^(id_token_|claims_|claim_types_|subject_types_)|^claims_parameter_supported$/.test(field))
      delete metadata[field];
}
