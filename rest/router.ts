// Builds the Koa router from the route table: input assembly, the core call (callOperation, shared
// with MCP), and its HTTP mapping (If-Match, If-None-Match and Idempotency-Key read from headers;
// ETag, 304, Idempotent-Replayed, Location and the success status answered). No business rules here.
import type { Context, Middleware } from 'koa';
import { callOperation } from '../core/platform/pipeline/call-operation';
import { isDocumentFile } from '../core/platform/pipeline/document-file';
import { isTableFile } from '../core/platform/pipeline/table-file';
import { problem } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { sendDocumentFile } from './document-file-answer';
import { coerceQuery } from './query';
import { groupedRoutes } from './route-groups';
import { apiBase, type Method, openApiPath, type Route } from './route-table';
import { routes } from './routes';
import { sendTableFile } from './table-file-answer';

/**
 * The body the shared reader (jsonBody, ahead of every route) parsed. It parses each body whose type
 * is JSON, so a body sent that it left unparsed is of another type: its Content-Type is not looked
 * at twice.
 */
function readBody(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (body === undefined) {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return {};
    throw problem('invalidBody', 'Send the body as JSON with Content-Type: application/json.');
  }
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
    const idempotencyKey = ctx.headers['idempotency-key'];
    const answer = await callOperation({
      operation,
      actor: ctx.state.actor,
      services,
      input: { ...query, ...body, ...ctx.params },
      request: {
        origin: ctx.state.origin,
        userAgent: ctx.get('user-agent') || undefined,
        ifMatch: ctx.get('if-match') || undefined,
        ifNoneMatch: ctx.get('if-none-match') || undefined,
        idempotencyKey: idempotencyKey === undefined ? undefined : String(idempotencyKey),
        callName: { method: ctx.method, path: ctx.path.toLowerCase() },
        bodyFields: hasBody ? new Set(Object.keys(body)) : noFields,
      },
    });
    if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (operation.file && isTableFile(answer.data)) return sendTableFile(ctx, operation.file, answer.data);
    if (operation.file && isDocumentFile(answer.data))
      return sendDocumentFile(ctx, operation.file, answer.data);
    if (answer.etag) ctx.set('ETag', answer.etag);
    if (answer.notModified) {
      ctx.status = 304;
      return;
    }
    if (route.location) ctx.set('Location', route.location(answer.data));
    ctx.status = route.status ?? 200;
    ctx.body = ctx.status === 204 ? null : answer.data;
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
