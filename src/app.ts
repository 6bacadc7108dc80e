// The Koa application: shared middleware, then the public docs, the REST API and the MCP endpoint.
import { Router } from '@koa/router';
import Koa from 'koa';
import type { Services } from '../core/platform/services';
import { mcpEndpoint } from '../mcp/endpoint';
import { docsRouter } from '../rest/docs-router';
import { restMethodGuard, restRouter } from '../rest/router';
import { authenticate } from './http/authenticate';
import { httpsOnly } from './http/https-only';
import { traceAndProblems } from './http/trace-and-problems';
import type { Logger } from './logger';

export function buildApp(services: Services, logger: Logger, options: { trustProxy: boolean }): Koa {
  const app = new Koa({ proxy: options.trustProxy });
  app.silent = true;
  app.use(traceAndProblems(logger));
  app.use(httpsOnly(options.trustProxy));

  const docs = docsRouter();
  app.use(docs.routes());

  const rest = restRouter({ services, authenticate: authenticate(services, 'rest') });
  app.use(rest.routes());
  app.use(restMethodGuard(rest));

  const mcp = new Router();
  mcp.all('/mcp', ...mcpEndpoint({ services, authenticate: authenticate(services, 'mcp') }));
  app.use(mcp.routes());
  return app;
}
