// Where a client may have its authorization codes sent. A code sent over plain http to another host
// can be read on the way, so http is for the loopback only (an app listening on the user's own
// machine, RFC 8252 §7.3), https anywhere; an app's private-use scheme (com.example.app:/cb) is left
// to oidc-provider's own rules (native clients).
import { errors } from 'oidc-provider';

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Refuses (invalid_redirect_uri) a plain-http redirect URI whose host is not the loopback. */
export function checkRedirectUris(redirectUris: unknown): void {
  if (!Array.isArray(redirectUris)) return; // oidc-provider refuses what is not a list of URIs
  for (const uri of redirectUris) {
    const url = typeof uri === 'string' && URL.canParse(uri) ? new URL(uri) : null;
    if (url?.protocol === 'http:' && !loopbackHosts.has(url.hostname))
      // A description starting with redirect_uris makes oidc-provider answer invalid_redirect_uri.
      throw new errors.InvalidClientMetadata(
        `redirect_uris may use http only on the loopback (127.0.0.1, [::1], localhost); use https for ${url.host}`,
      );
  }
}
