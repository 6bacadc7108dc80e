// The one way a claim changes status: a conditional update from the statuses allowed, so of two
// approvals or payments at once only one moves the claim and sends its message; the other answers
// 409 statusNotAllowed naming the status the first left.
import * as v from 'valibot';
import type { ExpenseClaimsTable } from '../../db/schema';
import type { ClaimStatus } from '../../db/values';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { claimStatusEmitters } from './claim-messages';
import { claimNow, loadClaim, requireClaimStatus } from './claim-rows';
import { claimSchema } from './claim-view';

interface ClaimMove {
  name: string;
  title: string;
  description: string;
  from: readonly ClaimStatus[];
  to: ClaimStatus;
  /** Said of the claim when refused: "A paid claim cannot be <action>." */
  action: string;
  /** The columns the move stamps (approved_utc, paid_utc), given the time now. */
  stamp?: (now: string) => Partial<Pick<ExpenseClaimsTable, 'approved_utc' | 'paid_utc'>>;
}

export function claimMove(move: ClaimMove) {
  return defineOperation({
    name: move.name,
    title: move.title,
    description: move.description,
    scope: 'finance:write',
    effect: 'write',
    // Sent again, a move changes nothing more: the claim is no longer where it could move from.
    repeatable: true,
    extension: true,
    module: 'budget',
    etag: true,
    problems: ['notFound', 'statusNotAllowed'],
    ifMatch: {
      hold: heldRow('expense_claims', (input) => input.claimId),
      current: (ctx, input) => claimNow(ctx, input.eventId, input.claimId),
    },
    activity: { resourceType: 'expenseClaim', resourceId: (_input, claim) => claim.claimId },
    input: v.object({ eventId: uuid('The event id.'), claimId: uuid('The expense claim id.') }),
    output: claimSchema,
    async handler(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      const claim = await loadClaim(ctx, event.id, input.claimId);
      requireClaimStatus(claim, move.from, move.action);
      const changed = await changedNow(ctx);
      const moved = await ctx.db
        .updateTable('expense_claims')
        .set({ status: move.to, ...move.stamp?.(changed.updated_utc), ...changed })
        .where('id', '=', claim.id)
        .where('status', 'in', move.from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0)
        requireClaimStatus(await loadClaim(ctx, event.id, claim.id), move.from, move.action);
      const emitter = claimStatusEmitters[move.to];
      if (emitter) await emitter.emit(ctx, { event, claim: await loadClaim(ctx, event.id, claim.id) });
      return claimNow(ctx, event.id, claim.id);
    },
  });
}
