// Shared by REST and MCP: verifies the key through core's one verifier, counts the call on the
// key's one rate counter, sets the RateLimit headers, and records the call in key activity.
// Failed authentications are counted per source address: past the limit that address is answered
// 429 instead of 401 for a while. A working key is never refused for it, so nobody can lock a
// real key out by failing on purpose.
import type { Middleware } from 'koa';
import { credentialFrom, keptKeyOf, verifyToken } from '../../core/platform/pipeline/authenticate';
import { isProblem, problem } from '../../core/platform/problems';
import type { Services } from '../../core/platform/services';
import { type CountedCall, decisionOf, type RateLimiter } from '../../core/platform/storage/rate-counter';

export interface AuthenticationGuard {
  /** Failed authentications per source address, shared by REST, MCP, the sign-in's key form and /metrics. */
  failures: RateLimiter;
  failuresPerMinute: number;
}

/**
 * Counts a failed authentication from an address; past the limit, answers how many seconds that
 * address must wait (and counts the refusal), else null. The API, MCP, the assistant sign-in's key
 * form and /metrics's token share the count, so nothing can be guessed faster through one of them.
 */
export async function failedAuthentication(
  services: Services,
  guard: AuthenticationGuard,
  address: string,
): Promise<number | null> {
  const failures = await guard.failures.take(address, guard.failuresPerMinute, services.clock.now());
  if (failures.allowed) return null;
  services.metrics?.rateLimited('authFailure');
  return failures.resetSeconds;
}

/** Counts a failed authentication; past the limit, throws 429 rateLimited with the wait (Retry-After). */
export async function countFailedAuthentication(
  services: Services,
  guard: AuthenticationGuard,
  address: string,
): Promise<void> {
  const refusedFor = await failedAuthentication(services, guard, address);
  if (refusedFor !== null)
    throw problem(
      'rateLimited',
      `Too many failed authentications from this address; retry in ${refusedFor} seconds.`,
      { retryAfter: refusedFor },
    );
}

/**
 * Where the call counter is in the database (PostgreSQL), a key kept in memory has its call counted
 * and the key generation read in one statement, before it is verified: one round trip of every call
 * instead of two. The count is the key's whatever the verification finds (the secret matched).
 */
async function countKeptKey(
  services: Services,
  token: string | undefined,
  now: Date,
): Promise<(CountedCall & { keyId: string }) | undefined> {
  if (!services.rate.countReadingGeneration) return undefined;
  const keyId = keptKeyOf(services, token);
  if (keyId === undefined) return undefined;
  return { keyId, ...(await services.rate.countReadingGeneration(keyId, now)) };
}

/**
 * Every value of each credential header (ctx.get gives only the first Authorization header), read
 * off the raw headers: Node's headersDistinct makes an array of every header of the request.
 */
function credentialHeaders(rawHeaders: readonly string[]): { authorization: string[]; apiKey: string[] } {
  const authorization: string[] = [];
  const apiKey: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization')
      authorization.push(rawHeaders[i + 1] as string);
    else if (name.length === 9 && name.toLowerCase() === 'x-api-key')
      apiKey.push(rawHeaders[i + 1] as string);
  }
  return { authorization, apiKey };
}

export function authenticate(
  services: Services,
  transport: 'rest' | 'mcp',
  guard: AuthenticationGuard,
): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const sent = credentialHeaders(ctx.req.rawHeaders);
    const credential = credentialFrom(sent.authorization, sent.apiKey);
    const now = services.clock.now();
    const counted = 'problem' in credential ? undefined : await countKeptKey(services, credential.token, now);
    const verification =
      'problem' in credential
        ? { ok: false as const, problem: credential.problem }
        : await verifyToken(services, credential.token, transport, counted?.generation);
    let key: { keyId: string; workspaceId: string } | undefined;
    let outcome = 'ok';
    let status = 200;
    try {
      if (!verification.ok) {
        key = verification.key;
        // RFC 9728: where an assistant finds how to sign in for the MCP server.
        if (transport === 'mcp')
          ctx.set(
            'WWW-Authenticate',
            `Bearer realm="tessera-mcp", resource_metadata="${ctx.state.origin}/.well-known/oauth-protected-resource/mcp"`,
          );
        await countFailedAuthentication(services, guard, ctx.ip);
        throw verification.problem;
      }
      const actor = verification.actor;
      key = { keyId: actor.keyId, workspaceId: actor.workspaceId };
      const rate =
        counted?.keyId === actor.keyId
          ? decisionOf(
              counted.startedMs,
              counted.used,
              actor.ratePerMinute,
              now.getTime(),
              services.rate.windowSeconds,
            )
          : await services.rate.take(actor.keyId, actor.ratePerMinute, now);
      ctx.set('RateLimit-Policy', `"default";q=${rate.limit};w=${rate.windowSeconds}`);
      ctx.set('RateLimit', `"default";r=${rate.remaining};t=${rate.resetSeconds}`);
      if (!rate.allowed) {
        services.metrics?.rateLimited('key');
        throw problem(
          'rateLimited',
          `More than ${rate.limit} calls a minute; retry in ${rate.resetSeconds} seconds.`,
          { retryAfter: rate.resetSeconds },
        );
      }
      ctx.state.actor = actor;
      await next();
      status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
      outcome = ctx.state.outcome ?? (status >= 400 ? 'error' : 'ok');
    } catch (error) {
      outcome = isProblem(error) ? error.code : 'serverError';
      status = isProblem(error) ? error.status : 500;
      throw error;
    } finally {
      if (key) {
        services.activity.record({
          workspaceId: key.workspaceId,
          apiKeyId: key.keyId,
          atUtc: services.clock.now().toISOString(),
          transport,
          operation: ctx.state.operation ?? `${ctx.method} ${ctx.path}`,
          outcome,
          status,
          durationMs: performance.now() - started,
          source: ctx.ip || null,
        });
      }
    }
  };
}
