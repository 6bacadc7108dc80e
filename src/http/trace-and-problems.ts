// Gives every request a traceId (answered in the X-Trace-Id header, written to the log) and
// turns every refusal into application/problem+json. Unknown faults become 500 serverError.
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import { isProblem, type Problem, problem, problemBody } from '../../core/platform/problems';
import type { Logger } from '../logger';

export function traceAndProblems(logger: Logger): Middleware {
  return async (ctx, next) => {
    const traceId = randomBytes(16).toString('hex');
    ctx.state.traceId = traceId;
    // Koa 3's ctx.origin is the Origin header; the service's own origin is protocol + host.
    ctx.state.origin = `${ctx.protocol}://${ctx.host}`;
    ctx.set('X-Trace-Id', traceId);
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) {
        throw problem('notFound', `Nothing is at ${ctx.path}.`);
      }
    } catch (error) {
      const p = toProblem(error);
      if (p.status >= 500) logger.error({ traceId, err: error }, 'request failed');
      ctx.status = p.status;
      ctx.type = 'application/problem+json';
      ctx.body = problemBody(p, { root: ctx.state.origin, instance: ctx.path, traceId });
    } finally {
      logger.info(
        {
          traceId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.respond === false ? ctx.res.statusCode : ctx.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
}

export function toProblem(error: unknown): Problem {
  if (isProblem(error)) return error;
  return problem('serverError');
}

/** Sends a problem from code that runs with ctx.respond = false (the MCP endpoint). */
export function renderProblemTo(ctx: Parameters<Middleware>[0], p: Problem): void {
  ctx.status = p.status;
  ctx.type = 'application/problem+json';
  ctx.body = problemBody(p, { root: ctx.state.origin, instance: ctx.path, traceId: ctx.state.traceId });
}
