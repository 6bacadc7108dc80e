// Builds the Koa router from the route table: body parsing, input assembly, the core call,
// ETag / If-None-Match, Idempotency-Key and the success status. No business rules here.
import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Ctx } from '../core/platform/context';
import { etagOf, tagListMatches } from '../core/platform/etag';
import { hashBody } from '../core/platform/idempotency';
import { invoke } from '../core/platform/invoke';
import { problem } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { coerceQuery } from './query';
import { apiBase, openApiPath, type Route } from './route-table';
import { routes } from './routes';

const parseJson = koaBody({
  json: true,
  urlencoded: false,
  text: false,
  multipart: false,
  jsonStrict: true,
  jsonLimit: '1mb',
  // The types readBody accepts; koa-body's default list lacks merge-patch, which PATCH documents.
  jsonTypes: ['application/json', 'application/merge-patch+json', '+json'],
  parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  onError: (error: Error & { status?: number }) => {
    if (error.status === 413) throw problem('payloadTooLarge', 'The request body is larger than 1 MB.');
    throw problem('invalidBody', 'The body is not valid JSON.');
  },
});

function readBody(ctx: Context): Record<string, unknown> {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return {};
  if (!ctx.is('application/json', 'application/merge-patch+json', '+json')) {
    throw problem('invalidBody', 'Send the body as JSON with Content-Type: application/json.');
  }
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw problem('invalidBody', 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}

function handle(route: Route, services: Services): Middleware {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return async (ctx) => {
    const body = hasBody ? readBody(ctx) : {};
    const query = coerceQuery(route.operation.input, ctx.query);
    const raw = { ...query, ...body, ...ctx.params };
    const call: Ctx = {
      db: services.db,
      clock: services.clock,
      actor: ctx.state.actor,
      services,
      request: {
        origin: ctx.state.origin,
        ifMatch: route.ifMatch ? ctx.get('if-match') || undefined : undefined,
      },
    };
    const idempotencyHeader = ctx.headers['idempotency-key'];
    const idempotency =
      route.operation.idempotent && idempotencyHeader !== undefined
        ? { key: String(idempotencyHeader), method: ctx.method, path: ctx.path, bodyHash: hashBody(raw) }
        : undefined;
    const result = await invoke(route.operation, call, raw, {
      bodyFields: new Set(Object.keys(body)),
      idempotency,
    });
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (route.etag) {
      const etag = etagOf(result.data);
      ctx.set('ETag', etag);
      const ifNoneMatch = ctx.get('if-none-match');
      if (ifNoneMatch && tagListMatches(ifNoneMatch, etag)) {
        ctx.status = 304;
        return;
      }
    }
    ctx.status = route.status ?? 200;
    ctx.body = result.data;
  };
}

export interface RestOptions {
  services: Services;
  /** Verifies the key, counts the call and records activity (shared with MCP by the composition root). */
  authenticate: Middleware;
}

export function restRouter({ services, authenticate }: RestOptions): Router {
  const router = new Router({ prefix: apiBase });
  for (const route of routes) {
    const operationName: Middleware = async (ctx, next) => {
      ctx.state.operation = `${route.method} ${apiBase}${openApiPath(route.path)}`;
      await next();
    };
    router.register(
      route.path,
      [route.method],
      [operationName, authenticate, parseJson, handle(route, services)],
    );
  }
  return router;
}

export function restMethodGuard(router: Router): Middleware {
  // Not `throw: true`: the router then throws before setting Allow, which a 405 must carry.
  const allowed = router.allowedMethods() as Middleware;
  return async (ctx, next) => {
    await allowed(ctx, next);
    if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) throw problem('methodNotAllowed');
  };
}
