// The operations endpoints, outside /api/v1, with no workspace data in their answers: /healthz
// (the process answers; nothing else is touched), /readyz (readiness.ts) and /metrics (Prometheus
// text, only for the token or the addresses the operator named; absent when neither is set).
// Answers are never cached: each poll must see the present.
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { ReadinessAnswer } from './readiness';
import type { ServerMetrics } from './server-metrics';

const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};

/** /healthz and /readyz: no key; answered over plain HTTP too behind --trust-proxy (a load balancer's probe). */
export function healthRouter(ready: () => Promise<ReadinessAnswer>): Router {
  const router = new Router();
  router.get('/healthz', noStore, (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', noStore, async (ctx) => {
    const answer = await ready();
    ctx.status = answer.ready ? 200 : 503;
    ctx.body = { status: answer.ready ? 'ready' : 'unready', checks: answer.checks };
  });
  return router;
}

/** /metrics, for those `access` lets through (it throws the refusal for the others). */
export function metricsRouter(metrics: ServerMetrics, access: Middleware): Router {
  const router = new Router();
  router.get('/metrics', noStore, access, async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.scrape();
  });
  return router;
}
