// One token verifier for both adapters: turns a Bearer token or X-Api-Key into an Actor.
// Verified keys are kept in memory (KeyCache) until a key or workspace changes anywhere, so a
// revocation or expiry still takes effect on the very next call.

import type { Actor, Verification } from '../actor';
import { parseKey, secretMatches } from '../keys';
import { type Problem, problem } from '../problems';
import { isScope, type Scope } from '../scopes';
import type { Services } from '../services';
import type { KeyLookup, KeyRow } from '../storage/key-cache';
import { type Audience, isAccessToken, verifyAccessToken } from './access-tokens';

const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/**
 * The credential of a request: `Authorization: Bearer …`, or `X-Api-Key`, with every value each
 * header was sent with (Node keeps only the first Authorization header, so a second key would be
 * ignored unseen). The same key may be sent more than once; two different credentials are refused
 * (invalidKey) rather than one of them being picked silently.
 */
export function credentialFrom(
  authorization: readonly string[],
  apiKeyHeader: readonly string[],
): { token: string | undefined } | { problem: Problem } {
  // The usual call: one Authorization header.
  if (authorization.length === 1 && apiKeyHeader.length === 0) {
    const value = authorization[0] as string;
    return { token: (bearerPattern.exec(value)?.[1] ?? value.trim()) || undefined };
  }
  const bearers = authorization
    .map((value) => bearerPattern.exec(value)?.[1] ?? value.trim())
    .filter(Boolean);
  const headers = apiKeyHeader.map((value) => value.trim()).filter(Boolean);
  const keys = new Set([...bearers, ...headers]);
  if (keys.size > 1) {
    const where =
      bearers.length && headers.length
        ? 'Authorization and X-Api-Key'
        : `two ${bearers.length ? 'Authorization' : 'X-Api-Key'} headers`;
    return {
      problem: problem('invalidKey', `Two different credentials were sent (${where}); send one key.`),
    };
  }
  return { token: [...keys][0] };
}

/**
 * Verifies what a call carries: an API key, or an access token from an assistant's sign-in, which
 * must be for this adapter's audience. Both end in the same actor, so scopes, the rate counter and
 * key activity treat a key and its tokens as one.
 */
export async function verifyToken(
  services: Services,
  token: string | undefined,
  audience: Audience,
  /** The key generation this call already read (KeyCache.find), if it did. */
  generation?: number,
): Promise<Verification> {
  if (!token)
    return {
      ok: false,
      problem: problem('invalidKey', 'No API key was sent: use Authorization: Bearer <key> or X-Api-Key.'),
    };
  if (isAccessToken(token))
    return verifyAccessToken(services, token, audience, (keyId) => verifyKeyId(services, keyId));
  const parts = parseKey(token);
  if (!parts)
    return { ok: false, problem: problem('invalidKey', "The API key is not in this service's format.") };
  return keyActor(services, { prefix: parts.prefix, secret: parts.secret }, generation);
}

/**
 * The id of the API key `token` is, when the key's row is kept in memory and the token's secret
 * matches it (so a caller that knows only a prefix never counts against the key): its call can be
 * counted before the key is verified, the generation read with the count. Access tokens: none.
 */
export function keptKeyOf(services: Services, token: string | undefined): string | undefined {
  const parts = token === undefined || isAccessToken(token) ? null : parseKey(token);
  if (!parts) return undefined;
  const row = services.keys.peek({ prefix: parts.prefix });
  return row && secretMatches(parts.secret, row.secret_hash) ? row.keyId : undefined;
}

/** The actor of the key with this id, refused as a presented key would be (revoked, expired). */
export function verifyKeyId(services: Services, keyId: string): Promise<Verification> {
  return keyActor(services, { keyId });
}

/** The key's actor, found by its prefix (and proven by its secret) or by its id (a token's key). */
async function keyActor(
  services: Services,
  by: { prefix: string; secret: string } | { keyId: string },
  generation?: number,
): Promise<Verification> {
  const lookup = 'keyId' in by ? { keyId: by.keyId } : { prefix: by.prefix };
  const found = services.keys.find(services.db, lookup, () => readKey(services, lookup), generation);
  const row = found instanceof Promise ? await found : found;
  if (!row || ('secret' in by && !secretMatches(by.secret, row.secret_hash))) {
    return { ok: false, problem: problem('invalidKey', 'The API key is not recognised.') };
  }
  if (row.revoked_utc !== null)
    return {
      ok: false,
      problem: problem('keyRevoked', `The API key was revoked at ${row.revoked_utc}.`),
      key: { keyId: row.keyId, workspaceId: row.workspaceId },
    };
  if (row.expires_utc !== null && row.expires_utc <= services.clock.now().toISOString()) {
    return {
      ok: false,
      problem: problem('keyExpired', `The API key expired at ${row.expires_utc}.`),
      key: { keyId: row.keyId, workspaceId: row.workspaceId },
    };
  }
  return { ok: true, actor: actorOf(row, services.defaultRatePerMinute) };
}

/**
 * The actor a kept row stands for, made once per row (frozen, so no call changes it for the next):
 * parsing the scopes and building the actor on every call was a tenth of what a call allocated.
 * A row read again is a new row, so a changed key is a new actor.
 */
const actors = new WeakMap<KeyRow, Actor>();

function actorOf(row: KeyRow, defaultRatePerMinute: number): Actor {
  const kept = actors.get(row);
  // A row is one service's, but the default limit is the service's setting: made again should it differ.
  if (kept && kept.ratePerMinute === (row.rate_per_minute ?? defaultRatePerMinute)) return kept;
  const scopes = Object.freeze((JSON.parse(row.scopes) as string[]).filter(isScope)) as Scope[];
  const actor: Actor = Object.freeze({
    workspaceId: row.workspaceId,
    workspaceName: row.workspaceName,
    demonstration: row.demonstration === 1,
    keyId: row.keyId,
    keyName: row.keyName,
    keyPrefix: row.prefix,
    keyCreatedUtc: row.created_utc,
    expiresUtc: row.expires_utc,
    scopes,
    legacy: row.legacy_scopes !== null,
    ratePerMinute: row.rate_per_minute ?? defaultRatePerMinute,
    audience: 'any',
  });
  actors.set(row, actor);
  return actor;
}

/** The key and its workspace, as verification reads them. */
function readKey(services: Services, lookup: KeyLookup): Promise<KeyRow | undefined> {
  return services.db
    .selectFrom('api_keys')
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .select([
      'api_keys.id as keyId',
      'api_keys.workspace_id as workspaceId',
      'api_keys.name as keyName',
      'api_keys.prefix',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.legacy_scopes',
      'api_keys.rate_per_minute',
      'api_keys.created_utc',
      'api_keys.expires_utc',
      'api_keys.revoked_utc',
      'workspaces.name as workspaceName',
      'workspaces.demonstration',
    ])
    .where(
      'keyId' in lookup ? 'api_keys.id' : 'api_keys.prefix',
      '=',
      'keyId' in lookup ? lookup.keyId : lookup.prefix,
    )
    .executeTakeFirst();
}
