// Access tokens from an assistant's sign-in: JWTs signed with the deployment's keys, each bound to
// one audience, the MCP server (/mcp) or the REST API (/api/v1). A token acts for the API key that
// signed in (its `sub`), with the scopes it was granted and never more than that key holds now; the
// key row is read on every call, so revoking or expiring the key ends its tokens on the next call.
// A token names its grant (`grant_id`) too, read on every call as well: a grant revoked (its code
// used twice, its refresh token revoked) ends the tokens issued under it.
import { errors, jwtVerify } from 'jose';
import { grantInForce } from '../../../db/oauth-store';
import type { Verification } from '../actor';
import { problem } from '../problems';
import { scopes as allScopes, hasScope, isScope } from '../scopes';
import type { Services } from '../services';

export type Audience = 'rest' | 'mcp';

/** The path of each audience's resource identifier (RFC 8707): {issuer}/mcp, {issuer}/api/v1. */
export const resourcePaths: Record<Audience, string> = { mcp: '/mcp', rest: '/api/v1' };

/** The resource identifier of an audience: what a token for it names as `aud`. */
export function resourceUrl(issuer: string, audience: Audience): string {
  return `${issuer}${resourcePaths[audience]}`;
}

/** The audience a resource identifier names, or null when it is not one of this issuer's. */
export function audienceOf(issuer: string, resource: string): Audience | null {
  for (const audience of Object.keys(resourcePaths) as Audience[])
    if (resource === resourceUrl(issuer, audience)) return audience;
  return null;
}

/** A JWT (three base64url parts), as opposed to an API key (abk_…). */
export function isAccessToken(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);
}

/** The API key behind a token, with what it holds now. */
export type KeyLoader = (keyId: string) => Promise<Verification>;

export async function verifyAccessToken(
  services: Services,
  token: string,
  audience: Audience,
  loadKey: KeyLoader,
): Promise<Verification> {
  const verifier = services.tokens;
  let claims: { sub?: string; aud?: string | string[]; scope?: unknown; exp?: number; grant_id?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(token, verifier.keys, {
      issuer: verifier.issuer,
      algorithms: ['ES256'],
      currentDate: services.clock.now(),
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      return {
        ok: false,
        problem: problem('keyExpired', 'The access token has expired; sign in again or refresh it.'),
      };
    return { ok: false, problem: problem('invalidKey', 'The access token is not recognised.') };
  }
  const expected = resourceUrl(verifier.issuer, audience);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected)) {
    const other = audience === 'mcp' ? 'the REST API' : 'the MCP server';
    return {
      ok: false,
      problem: problem(
        'wrongAudience',
        `This token is for ${other}; this is ${expected}. Ask for a token for it.`,
      ),
    };
  }
  if (typeof claims.sub !== 'string')
    return { ok: false, problem: problem('invalidKey', 'The access token names no key.') };
  const key = await loadKey(claims.sub);
  if (!key.ok) return key;
  if (
    typeof claims.grant_id !== 'string' ||
    !(await grantInForce(services.db, claims.grant_id, services.clock.now()))
  )
    return {
      ok: false,
      problem: problem('invalidKey', 'The access token was revoked with its sign-in; sign in again.'),
      key: { keyId: key.actor.keyId, workspaceId: key.actor.workspaceId },
    };
  const granted = new Set(typeof claims.scope === 'string' ? claims.scope.split(' ').filter(isScope) : []);
  // A read the key holds through its area's write (events:write reads events) may be granted alone.
  const scopes = allScopes.filter((s) => granted.has(s) && hasScope(key.actor.scopes, s));
  return { ok: true, actor: { ...key.actor, scopes, audience } };
}
