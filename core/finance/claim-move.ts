// The one way a claim changes status: a status move (platform/pipeline/status-move.ts), so of two
// approvals or payments at once only one moves the claim and sends its message; the other answers
// 409 statusNotAllowed naming the status the first left.
import * as v from 'valibot';
import type { ExpenseClaimsTable } from '../../db/schema';
import type { ClaimStatus } from '../../db/values';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { moveStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { claimStatusEmitters } from './claim-messages';
import { claimNow, loadClaim } from './claim-rows';
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
      const changed = await changedNow(ctx);
      await moveStatus(ctx, {
        table: 'expense_claims',
        row: claim,
        called: 'claim',
        what: 'expense claim',
        from: move.from,
        action: move.action,
        changes: { status: move.to, ...move.stamp?.(changed.updated_utc), ...changed },
      });
      const emitter = claimStatusEmitters[move.to];
      if (emitter) await emitter.emit(ctx, { event, claim: await loadClaim(ctx, event.id, claim.id) });
      return claimNow(ctx, event.id, claim.id);
    },
  });
}
