// oidc-provider makes its absolute URLs (the metadata's endpoints, registration_client_uri, the
// address a finished sign-in returns to) from the request it is handed: its Host header, the
// X-Forwarded-Host and -Proto headers when it trusts a proxy, or an absolute request target
// (`GET https://host/path`). Anyone can set those, so before the provider sees a request they are
// set from the issuer (the public URL, else the listening origin), and it names no other.
import type { IncomingMessage } from 'node:http';

const absoluteTarget = /^https?:\/\//i;

export function pinOrigin(req: IncomingMessage, origin: string): void {
  const { host, protocol } = new URL(origin);
  if (req.url && absoluteTarget.test(req.url)) {
    const target = new URL(req.url);
    req.url = `${target.pathname}${target.search}`;
  }
  req.headers.host = host;
  req.headers['x-forwarded-host'] = host;
  req.headers['x-forwarded-proto'] = protocol.slice(0, -1);
}
