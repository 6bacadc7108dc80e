// Who may read /metrics: a client at an address the operator allowed (TESSERA_METRICS_ALLOW; behind
// --trust-proxy the forwarded address, as everywhere else), or one sending the bearer token
// (TESSERA_METRICS_TOKEN), compared in constant time. Anyone else is refused: 401 with
// WWW-Authenticate when a token is set (a scraper with a wrong token is told so), 404 when only
// addresses are allowed (there is nothing to authenticate with: /metrics is absent for them).
// A missing or wrong token counts as a failed authentication of its address, with the API's, MCP's
// and the sign-in's: past the limit that address is answered 429 rateLimited instead, so tokens
// cannot be guessed at any speed. The right token is never refused for it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { inNetworks, type Network, parseNetwork } from '../../core/platform/networks';
import { problem } from '../../core/platform/problems';
import type { Services } from '../../core/platform/services';
import { type AuthenticationGuard, countFailedAuthentication } from '../http/authenticate';
import type { MetricsSettings } from './metrics-settings';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Passes the requests that may read the metrics; throws the refusal to the others. */
export function metricsAccess(
  settings: MetricsSettings,
  services: Services,
  guard: AuthenticationGuard,
): Middleware {
  const networks = settings.allow.map((cidr) => parseNetwork(cidr) as Network);
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = settings.token === null ? null : digest(settings.token);
  return async (ctx, next) => {
    if (networks.length > 0 && inNetworks(ctx.ip, networks)) return next();
    if (expected === null) throw problem('notFound', `Nothing is at ${ctx.path}.`);
    const [scheme = '', sent = '', ...rest] = (ctx.get('authorization') || '').split(' ');
    if (scheme.toLowerCase() === 'bearer' && rest.length === 0 && timingSafeEqual(digest(sent), expected))
      return next();
    ctx.set('WWW-Authenticate', 'Bearer realm="tessera-metrics"');
    await countFailedAuthentication(services, guard, ctx.ip);
    throw problem('metricsTokenInvalid');
  };
}
