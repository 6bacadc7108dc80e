// A refund of a card order goes through Stripe before it is recorded: the money goes back to the
// buyer's card first (no write waits on Stripe), then the refund's transaction cancels the tickets
// and issues the credit note. The idempotency key names the order and the tickets, so a retry (or
// the same refund sent twice at once) makes one refund in Stripe; the transaction then lets one win.
import { createHash } from 'node:crypto';
import { activeTicketIds } from '../attendees';
import { ticketsAmountMinor } from '../invoicing';
import { connectStripe, workspaceStripe } from '../payments';
import type { Ctx } from '../platform/context';
import { detail, mention } from '../platform/mentions';
import { problem } from '../platform/problems';

/** Refunds in Stripe what the tickets were sold for, when the order was paid by card; else nothing. */
export async function refundCardPayment(
  ctx: Ctx,
  { eventId, orderId, attendeeIds }: { eventId: string; orderId: string; attendeeIds?: readonly string[] },
): Promise<void> {
  const paid = await ctx.db
    .selectFrom('orders')
    .innerJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
    .select(['orders.status', 'orders.currency', 'card_checkouts.payment_intent_id'])
    .where('orders.id', '=', orderId)
    .where('orders.event_id', '=', eventId)
    .where('orders.workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirst();
  if (paid?.status !== 'paid' || !paid.payment_intent_id) return;
  const activeIds = new Set(await activeTicketIds(ctx, orderId));
  const chosen = [...(attendeeIds ?? activeIds)].filter((id) => activeIds.has(id)).sort();
  // Nothing left to refund (or tickets not of the order): the refund's own checks answer.
  if (chosen.length === 0 || (attendeeIds && chosen.length !== attendeeIds.length)) return;
  const amountMinor = await ticketsAmountMinor(ctx, chosen);
  if (amountMinor <= 0) return;
  const stripe = await workspaceStripe(ctx.services, ctx.actor.workspaceId);
  if (!stripe)
    throw problem(
      'stripeNotConnected',
      detail`The order was paid by card through Stripe: refunding it needs the workspace connected again, ${mention(connectStripe)}.`,
    );
  const tickets = createHash('sha256').update(chosen.join(',')).digest('hex').slice(0, 24);
  await stripe.createRefund({
    paymentIntentId: paid.payment_intent_id,
    currency: paid.currency,
    amountMinor,
    idempotencyKey: `refund-${orderId}-${tickets}`,
    metadata: { orderId, tickets: String(chosen.length), source: 'tessera' },
  });
}
