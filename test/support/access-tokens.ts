// Access tokens as the sign-in issues them (a JWT signed with a key of the data folder, for one
// audience, naming the API key as its subject), made here for tests of the verifier.
import { importJWK, type JWK, SignJWT } from 'jose';
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
  return new SignJWT({ scope: request.scopes.join(' '), client_id: 'test-assistant' })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(request.keyId)
    .setAudience(`${issuer}${request.audience === 'mcp' ? '/mcp' : '/api/v1'}`)
    .setIssuedAt(now)
    .setJti(crypto.randomUUID())
    .setExpirationTime(now + (request.expiresIn ?? 3600))
    .sign(await importJWK(jwk, 'ES256'));
}
