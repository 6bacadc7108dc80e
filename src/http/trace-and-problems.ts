// Gives every request a traceId (answered in the X-Trace-Id header, written to the log) and its
// public origin, and turns every refusal into application/problem+json (with Retry-After when the
// problem says how long to wait, Accept-Encoding when it refuses a body's coding). Unknown faults become 500 serverError.
import type { Context, Middleware } from 'koa';
import { randomHex } from '../../core/platform/ids';
import { isProblem, type Problem, problem, problemBody } from '../../core/platform/problems';
import { restOperationName } from '../../rest/operation-names';
import type { Logger } from '../logger';
import { loggedPath } from './logged-path';

export function traceAndProblems(
  logger: Logger,
  originOf: (ctx: Context) => string,
  /** Told of every answer (its status and seconds taken), for /metrics. */
  answered?: (ctx: Context, status: number, seconds: number) => void,
): Middleware {
  return async (ctx, next) => {
    const traceId = randomHex();
    ctx.state.traceId = traceId;
    ctx.state.origin = originOf(ctx);
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
      const retryAfter = p.extras.retryAfter;
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      // A 415 for a body's coding says which codings a body may have (RFC 9110 §15.5.16).
      if (p.code === 'unsupportedEncoding') ctx.set('Accept-Encoding', String(p.extras.accepted));
      ctx.body = problemBody(p, {
        root: ctx.state.origin,
        instance: ctx.path,
        traceId,
        nameOperation: restOperationName,
      });
    } finally {
      const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
      const ms = performance.now() - started;
      logger.info(
        { traceId, method: ctx.method, path: loggedPath(ctx.path), status, ms: Math.round(ms) },
        'request',
      );
      answered?.(ctx, status, ms / 1000);
    }
  };
}

export function toProblem(error: unknown): Problem {
  if (isProblem(error)) return error;
  return problem('serverError');
}
