// The Koa application: the operations' declarations checked, shared middleware, then the public docs,
// the REST API and the MCP endpoint.
import { Router } from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import type { Provider } from 'oidc-provider';
import type { Services } from '../core/platform/services';
import { rateCounterFor } from '../core/platform/storage/shared-rate-counter';
import { mcpEndpoint } from '../mcp/endpoint';
import { tools } from '../mcp/tools';
import { apiDocumentsRouter } from '../rest/api-documents';
import { pagesRouter } from '../rest/pages-router';
import { apiBase } from '../rest/route-table';
import { restMethodGuard, restRouter } from '../rest/router';
import { routes } from '../rest/routes';
import { stripeWebhookRouter } from '../rest/stripe-webhook';
import { checkOperations, commandOperations } from './declarations';
import { authenticate } from './http/authenticate';
import { compression } from './http/compression';
import { crossSiteForms } from './http/cross-site-forms';
import { httpsOnly } from './http/https-only';
import { jsonBody } from './http/json-body';
import { ownOrigins, publicOrigin } from './http/public-origin';
import { traceAndProblems } from './http/trace-and-problems';
import type { Logger } from './logger';
import { metricsAccess } from './metrics/metrics-access';
import type { MetricsSettings } from './metrics/metrics-settings';
import { healthRouter, metricsRouter } from './metrics/operations-routes';
import type { ReadinessAnswer } from './metrics/readiness';
import { operationLabel } from './metrics/request-labels';
import type { ServerMetrics } from './metrics/server-metrics';
import { oauthRoutes } from './oauth/routes';

export interface AppOptions {
  trustProxy: boolean;
  publicUrl?: string;
  /** https://host:port the server listens at. */
  listening: string;
  authFailuresPerMinute: number;
  /** Registrations one client address may send through public event pages in ten minutes. */
  signUpsPerAddress: number;
  /** The OAuth server assistants sign in with. */
  oauth: Provider;
  /** /readyz's checks (src/metrics/readiness.ts). */
  readiness: () => Promise<ReadinessAnswer>;
  /** /metrics and who may read it; null: /metrics is off (absent). */
  metrics: { counts: ServerMetrics; settings: MetricsSettings } | null;
}

export function buildApp(services: Services, logger: Logger, options: AppOptions): Koa {
  // Every operation a route or a tool runs: refused here if invoke could not honour its declaration.
  const byKeys = [...routes.map((r) => r.operation), ...tools.map((t) => t.operation)];
  checkOperations([...byKeys, ...commandOperations], {
    byKeys,
    patched: routes.filter((r) => r.method === 'PATCH').map((r) => r.operation),
  });
  const app = new Koa({ proxy: options.trustProxy });
  app.silent = true;
  const originOf = publicOrigin(options);
  const counts = options.metrics?.counts;
  app.use(
    traceAndProblems(
      logger,
      originOf,
      counts && ((ctx, status, seconds) => counts.request(operationLabel(ctx), status, seconds)),
    ),
  );
  app.use(besideApi(healthRouter(options.readiness).routes()));
  app.use(httpsOnly(options.trustProxy));
  app.use(compression());
  // Failed authentications per source address, shared by the API, MCP, the assistant sign-in and
  // /metrics's token.
  const guard = {
    failures: rateCounterFor(services.db, 'auth-failure'),
    failuresPerMinute: options.authFailuresPerMinute,
  };
  const metrics = options.metrics
    ? [
        metricsRouter(
          options.metrics.counts,
          metricsAccess(options.metrics.settings, services, guard),
        ).routes(),
      ]
    : [];
  const oauth = oauthRoutes(services, options.oauth, guard);
  // The pages' forms and the assistant sign-in's are refused when another site's page sent them.
  const forms = { originOf, formTokenKey: services.secrets.formTokenKey, clock: services.clock };
  app.use(apiDocumentsRouter().routes());
  app.use(
    besideApi(
      ...metrics,
      crossSiteForms(forms, pagesRouter(services, { signUpsPerAddress: options.signUpsPerAddress })),
      oauth.endpoints,
      crossSiteForms(forms, oauth.signIn),
    ),
  );
  // Stripe's events: signed by Stripe, not sent with a key, read as the bytes sent.
  app.use(stripeWebhookRouter(services).routes());
  const body = jsonBody();
  const rest = restRouter({ services, authenticate: authenticate(services, 'rest', guard), jsonBody: body });
  app.use(rest.routes);
  app.use(restMethodGuard(rest));

  const mcp = new Router();
  mcp.all(
    '/mcp',
    ...mcpEndpoint({
      services,
      logger,
      authenticate: authenticate(services, 'mcp', guard),
      jsonBody: body,
      allowedOrigins: (ctx) => ownOrigins(originOf(ctx)),
    }),
  );
  app.use(mcp.routes());
  return app;
}

/**
 * The API's calls skip the routers of health, metrics, pages and sign-in: none answers under the
 * API's base path (the documents the API publishes there have a router of their own,
 * rest/api-documents.ts).
 */
function besideApi(...layers: ((ctx: never, next: Koa.Next) => unknown)[]): Koa.Middleware {
  const all = compose(layers as Koa.Middleware[]);
  const underApi = `${apiBase}/`;
  return (ctx, next) => (ctx.path.startsWith(underApi) ? next() : all(ctx, next));
}
