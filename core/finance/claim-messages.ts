// The expense claim family's messages: data = { event, claim }, one type per status a claim moves
// to (a rejected claim sends none).
import type { ExpenseClaimRow } from '../../db/schema';
import type { ClaimStatus, WebhookEventType } from '../../db/values';
import { type EventRefSource, eventRef } from '../events';
import { type MessageEmitter, messageEmitter } from '../platform/storage/message-emitter';
import { claimView } from './claim-view';

export interface ClaimChange {
  event: EventRefSource;
  claim: ExpenseClaimRow;
}

const claimMessage = ({ event, claim }: ClaimChange) => ({
  eventId: event.id,
  data: { event: eventRef(event), claim: claimView(claim) },
});

export const claimSubmitted = messageEmitter('claim.submitted', claimMessage);
export const claimApproved = messageEmitter('claim.approved', claimMessage);
export const claimPaid = messageEmitter('claim.paid', claimMessage);

/** The message a claim sends on reaching each status. */
export const claimStatusEmitters: Record<
  ClaimStatus,
  MessageEmitter<Extract<WebhookEventType, `claim.${string}`>, ClaimChange> | null
> = { submitted: claimSubmitted, approved: claimApproved, paid: claimPaid, rejected: null };
