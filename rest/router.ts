// Builds the Koa router from the route table: input assembly, the core call, and what the
// operation declares for HTTP (ETag / If-None-Match, If-Match, Idempotency-Key, success status).
// No business rules here.
import type { Context, Middleware } from 'koa';
import type { Ctx } from '../core/platform/context';
import { etagOf, tagListMatches } from '../core/platform/pipeline/etag';
import { invoke } from '../core/platform/pipeline/invoke';
import { isTableFile } from '../core/platform/pipeline/table-file';
import { problem } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { coerceQuery } from './query';
import { groupedRoutes } from './route-groups';
import { apiBase, type Method, openApiPath, type Route } from './route-table';
import { routes } from './routes';
import { sendTableFile } from './table-file-answer';

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

const noFields: ReadonlySet<string> = new Set();

function handle(route: Route, services: Services): Middleware {
  const { operation } = route;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return async (ctx) => {
    const body = hasBody ? readBody(ctx) : {};
    // Koa parses (and keeps) a query object even for none sent.
    const query = ctx.querystring === '' ? {} : coerceQuery(operation.input, ctx.query);
    const raw = { ...query, ...body, ...ctx.params };
    const call: Ctx = {
      db: services.db,
      clock: services.clock,
      actor: ctx.state.actor,
      services,
      request: {
        origin: ctx.state.origin,
        ifMatch: operation.ifMatch ? ctx.get('if-match') || undefined : undefined,
        userAgent: ctx.get('user-agent') || undefined,
      },
    };
    const idempotencyHeader = ctx.headers['idempotency-key'];
    const result = await invoke(operation, call, raw, {
      bodyFields: hasBody ? new Set(Object.keys(body)) : noFields,
      idempotency:
        operation.idempotent && idempotencyHeader !== undefined
          ? { key: String(idempotencyHeader), method: ctx.method, path: ctx.path.toLowerCase() }
          : undefined,
    });
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (operation.file && isTableFile(result.data)) return sendTableFile(ctx, operation.file, result.data);
    if (operation.etag) {
      const etag = etagOf(result.data);
      ctx.set('ETag', etag);
      // Only a read is skipped as unchanged: a write's answer is always sent.
      const ifNoneMatch = operation.effect === 'read' ? ctx.get('if-none-match') : '';
      if (ifNoneMatch && tagListMatches(ifNoneMatch, etag)) {
        ctx.status = 304;
        return;
      }
    }
    if (route.location) ctx.set('Location', route.location(result.data));
    ctx.status = route.status ?? 200;
    ctx.body = ctx.status === 204 ? null : result.data;
  };
}

/**
 * A path with a literal segment where another route has a parameter (/attendees/search beside
 * /attendees/{attendeeId}) belongs to the literal route: a method only the parameter route has
 * answers 405 there, not a refusal of "search" as an id.
 */
function shadowedLiteral(route: Route): ((ctx: Context) => Method[] | null) | null {
  const own = route.path.split('/');
  const literals = routes.filter((other) => {
    const theirs = other.path.split('/');
    return (
      other.path !== route.path &&
      theirs.length === own.length &&
      theirs.some((segment, i) => !segment.startsWith(':') && own[i]!.startsWith(':')) &&
      theirs.every((segment, i) => segment === own[i] || own[i]!.startsWith(':') || segment.startsWith(':'))
    );
  });
  if (literals.length === 0) return null;
  return (ctx) => {
    const segments = ctx.path.slice(apiBase.length).split('/');
    const found = literals.find((other) =>
      other.path.split('/').every((segment, i) => segment.startsWith(':') || segment === segments[i]),
    );
    if (!found) return null;
    return routes.filter((r) => r.path === found.path).map((r) => r.method);
  };
}

export interface RestOptions {
  services: Services;
  /** Verifies the key, counts the call and records activity (shared with MCP by the composition root). */
  authenticate: Middleware;
  /** Reads JSON bodies (shared with MCP by the composition root). */
  jsonBody: Middleware;
}

export function restRouter({ services, authenticate, jsonBody }: RestOptions): {
  routes: Middleware;
  allowedMethods: Middleware;
} {
  return groupedRoutes(routes, (router, route) => {
    const shadowed = shadowedLiteral(route);
    const operation = `${route.method} ${apiBase}${openApiPath(route.path)}`;
    const operationName: Middleware = (ctx, next) => {
      const allowed = shadowed?.(ctx);
      if (allowed) {
        ctx.set('Allow', [...new Set(allowed), ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
        throw problem('methodNotAllowed', `${ctx.path} answers ${allowed.join(', ')} only.`);
      }
      ctx.state.operation = operation;
      return next();
    };
    router.register(
      route.path,
      [route.method],
      [operationName, authenticate, jsonBody, handle(route, services)],
    );
  });
}

export function restMethodGuard(rest: { allowedMethods: Middleware }): Middleware {
  // Not `throw: true`: the router then throws before setting Allow, which a 405 must carry.
  const allowed = rest.allowedMethods;
  return async (ctx, next) => {
    await allowed(ctx, next);
    if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) throw problem('methodNotAllowed');
  };
}
