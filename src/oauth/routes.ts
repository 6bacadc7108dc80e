// Where the OAuth server answers in the app: its endpoints under /oauth, its metadata at the
// well-known addresses (RFC 8414, and OpenID discovery for clients that look there), the resource
// metadata of the MCP server and the REST API (RFC 9728), and the sign-in pages.

import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Provider } from 'oidc-provider';
import { type Audience, audienceOf, resourceUrl } from '../../core/platform/pipeline/access-tokens';
import { problem } from '../../core/platform/problems';
import { contentCodings, unsupportedEncoding } from '../../core/platform/request-body';
import { scopes } from '../../core/platform/scopes';
import type { Services } from '../../core/platform/services';
import { rateCounterFor } from '../../core/platform/storage/shared-rate-counter';
import type { AuthenticationGuard } from '../http/authenticate';
import { signInRouter } from './interactions';
import { pinOrigin } from './pin-origin';

const metadataPaths = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
]);

/** Registrations a minute from one source address: registration needs no credential, so it is bounded. */
const registrationsPerMinute = 20;

export function oauthRoutes(
  services: Services,
  provider: Provider,
  guard: AuthenticationGuard,
): { endpoints: Middleware; signIn: Router } {
  const handle = provider.callback();
  const registrations = rateCounterFor(services.db, 'oauth-registration');
  const signIn = signInRouter(services, provider, guard);
  const toProvider: Middleware = async (ctx, next) => {
    if (ctx.path.startsWith('/oauth/sign-in/')) return next();
    if (metadataPaths.has(ctx.path)) ctx.req.url = '/.well-known/openid-configuration';
    else if (!ctx.path.startsWith('/oauth/')) return next();
    // The provider reads its bodies itself, as sent: a coded one is refused rather than misread.
    const codings = contentCodings(ctx.get('content-encoding'));
    if (codings.length > 0 && ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw unsupportedEncoding(
        codings.join(', '),
        'identity',
        `The OAuth endpoints take bodies without a Content-Encoding; send it as plain form data, not ${codings.join(', ')}.`,
      );
    if (ctx.path === '/oauth/register' && ctx.method === 'POST') {
      const allowed = await registrations.take(ctx.ip, registrationsPerMinute, services.clock.now());
      if (!allowed.allowed) {
        services.metrics?.rateLimited('oauthRegistration');
        throw problem(
          'rateLimited',
          `Too many client registrations from this address; retry in ${allowed.resetSeconds} seconds.`,
          {
            retryAfter: allowed.resetSeconds,
          },
        );
      }
    }
    // The issuer, not each request's forwarded host: tokens carry one issuer, and RFC 8414 has the
    // metadata's endpoints under the issuer it names.
    pinOrigin(ctx.req, provider.issuer);
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  };
  const resourceMetadata: Middleware = async (ctx, next) => {
    const prefix = '/.well-known/oauth-protected-resource';
    const audience = ctx.path.startsWith(prefix)
      ? audienceOf(provider.issuer, `${provider.issuer}${ctx.path.slice(prefix.length)}`)
      : null;
    if (!audience || ctx.method !== 'GET') return next();
    ctx.body = protectedResourceMetadata(provider.issuer, audience);
  };
  const endpoints: Middleware = (ctx, next) => resourceMetadata(ctx, () => toProvider(ctx, next));
  return { endpoints, signIn };
}

/** RFC 9728: what an assistant needs to find how to sign in for a resource. */
export function protectedResourceMetadata(issuer: string, audience: Audience) {
  return {
    resource: resourceUrl(issuer, audience),
    authorization_servers: [issuer],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: audience === 'mcp' ? 'Tessera MCP server' : 'Tessera REST API',
    resource_documentation: `${issuer}/developers`,
  };
}
