// A page's look-up of ticket codes through the service's one guess limiter
// (core/platform/ticket-code-guesses.ts), counted by the visitor's address: past the limit the
// page answers 429 with Retry-After and says so, whatever the codes sent would have found.
import type { Context } from 'koa';
import type { Services } from '../core/platform/services';
import { ticketLookupPausedPage } from './pages/ticket';

/**
 * Counts the misses of this request's look-up (codes that named no ticket); when the visitor's
 * address is paused, answers the pause page and says so (true): nothing found may be shown then.
 */
export async function refusedForGuessing(ctx: Context, services: Services, misses: number): Promise<boolean> {
  const decision = await services.ticketGuesses.countMisses(
    { address: ctx.ip },
    misses,
    services.clock.now(),
  );
  if (decision.allowed) return false;
  services.metrics?.rateLimited('ticketMiss');
  ctx.status = 429;
  ctx.type = 'html';
  if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  ctx.set('Retry-After', String(decision.retryAfter));
  ctx.body = ticketLookupPausedPage(decision.retryAfter);
  return true;
}
