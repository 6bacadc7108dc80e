// What a client may ask the authorization endpoint for: a code, nothing else (OAuth 2.1). oidc-provider
// refuses every other response type itself but takes an empty list, which would register a client
// that can never sign in.
import { errors } from 'oidc-provider';

/** Refuses (invalid_client_metadata) response_types other than ["code"]. */
export function checkResponseTypes(responseTypes: unknown): void {
  if (!Array.isArray(responseTypes)) return; // oidc-provider refuses what is not a list
  if (responseTypes.length !== 1 || responseTypes[0] !== 'code')
    throw new errors.InvalidClientMetadata(
      'response_types must be ["code"]: Tessera signs in with the authorization code flow (PKCE S256) only',
    );
}
