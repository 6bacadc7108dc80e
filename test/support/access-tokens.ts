// Access tokens as the sign-in issues them (a JWT signed with a key of the data folder, for one
// audience, naming the API key as its subject and the grant it was issued under, kept as the
// sign-in keeps it), made here for tests of the verifier.
import { importJWK, type JWK, SignJWT } from 'jose';
import { OauthStore } from '../../db/oauth-store';
import { loadSigningKeys } from '../../src/signing-keys';
import type { TestServer } from './server';

export interface TokenRequest {
  keyId: string;
  audience: 'mcp' | 'rest';
  scopes: string[];
  /** Seconds from now until it expires (negative: already expired). */
  expiresIn?: number;
  /** Sign with this key instead of the data folder's current one. */
  signWith?: JWK;
}

export async function accessToken(t: TestServer, request: TokenRequest): Promise<string> {
  const jwk = request.signWith ?? (await loadSigningKeys(t.dataDir)).keys[0]!;
  const issuer = t.server.publicOrigin;
  const now = Math.floor(Date.now() / 1000);
  const grantId = crypto.randomUUID();
  const { db, clock } = t.server.services;
  await new OauthStore(db, clock, 'Grant').upsert(
    grantId,
    { jti: grantId, kind: 'Grant', accountId: request.keyId, clientId: 'test-assistant' },
    24 * 3600,
  );
  return new SignJWT({ scope: request.scopes.join(' '), client_id: 'test-assistant', grant_id: grantId })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(request.keyId)
    .setAudience(`${issuer}${request.audience === 'mcp' ? '/mcp' : '/api/v1'}`)
    .setIssuedAt(now)
    .setJti(crypto.randomUUID())
    .setExpirationTime(now + (request.expiresIn ?? 3600))
    .sign(await importJWK(jwk, 'ES256'));
}
