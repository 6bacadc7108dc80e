// What verifies an assistant's access tokens: the issuer they must name and the deployment's public
// keys. Built by the composition root, kept in Services; the verification itself is in
// pipeline/access-tokens.ts.
import { createLocalJWKSet, type JWK } from 'jose';

export interface TokenVerifier {
  /** The issuer (the service's public origin), known once the server listens. */
  issuer: string;
  /** The public keys tokens are verified with. */
  keys: ReturnType<typeof createLocalJWKSet>;
}

export function tokenVerifier(publicKeys: { keys: JWK[] }, issuer = ''): TokenVerifier {
  return { issuer, keys: createLocalJWKSet(publicKeys) };
}
