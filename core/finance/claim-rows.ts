// An expense claim found only at its event (another event's or workspace's id answers 404 notFound
// as if it did not exist), its view as this caller reads it.
import type { ExpenseClaimRow } from '../../db/schema';
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
