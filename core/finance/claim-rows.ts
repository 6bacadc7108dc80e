// An expense claim found only at its event (another event's or workspace's id answers 404 notFound
// as if it did not exist), its view as this caller reads it, and the status rule of its moves.
import type { ExpenseClaimRow } from '../../db/schema';
import type { ClaimStatus } from '../../db/values';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { claimView } from './claim-view';

export async function loadClaim(ctx: Ctx, eventId: string, id: string): Promise<ExpenseClaimRow> {
  const row = await ctx.db
    .selectFrom('expense_claims')
    .selectAll()
    .where('id', '=', id)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No expense claim ${id} at this event.`);
  return row;
}

export async function claimNow(ctx: Ctx, eventId: string, id: string) {
  return claimView(await loadClaim(ctx, eventId, id), ctx.actor);
}

/** 409 statusNotAllowed, naming the status, when the claim is in none of the allowed ones. */
export function requireClaimStatus(
  claim: Pick<ExpenseClaimRow, 'status'>,
  allowed: readonly ClaimStatus[],
  action: string,
): void {
  if (allowed.includes(claim.status)) return;
  throw problem('statusNotAllowed', `A ${claim.status} claim cannot be ${action}.`, {
    currentStatus: claim.status,
  });
}
