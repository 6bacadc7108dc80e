// Who may read /metrics: a client at an address the operator allowed (TESSERA_METRICS_ALLOW; behind
// --trust-proxy the forwarded address, as everywhere else), or one sending the bearer token
// (TESSERA_METRICS_TOKEN), compared in constant time. Anyone else is refused: 401 with
// WWW-Authenticate when a token is set (a scraper with a wrong token is told so), 404 when only
// addresses are allowed (there is nothing to authenticate with: /metrics is absent for them).
import { createHash, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Middleware } from 'koa';
import { problem } from '../../core/platform/problems';
import type { MetricsSettings } from './metrics-settings';

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Passes the requests that may read the metrics; throws the refusal to the others. */
export function metricsAccess(settings: MetricsSettings): Middleware {
  const networks = settings.allow.map((cidr) => ipaddr.parseCIDR(cidr) as Network);
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = settings.token === null ? null : digest(settings.token);
  return (ctx, next) => {
    if (networks.length > 0 && allowedAddress(ctx.ip, networks)) return next();
    if (expected === null) throw problem('notFound', `Nothing is at ${ctx.path}.`);
    const [scheme = '', sent = '', ...rest] = (ctx.get('authorization') || '').split(' ');
    if (scheme.toLowerCase() === 'bearer' && rest.length === 0 && timingSafeEqual(digest(sent), expected))
      return next();
    ctx.set('WWW-Authenticate', 'Bearer realm="tessera-metrics"');
    throw problem('metricsTokenInvalid');
  };
}

function allowedAddress(ip: string, networks: Network[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // An IPv4 client of a server listening on :: arrives as ::ffff:a.b.c.d.
  const address = ipaddr.process(ip);
  return networks.some(
    ([network, bits]) => address.kind() === network.kind() && address.match(network, bits),
  );
}
