// A refund made in Stripe's dashboard (not through Tessera), reflected on its order when Stripe says
// so (refund.created): what is refunded counts in the money figures at once; a refund of all that is
// left cancels the order's tickets (attendee.cancelled, places back) and issues the credit note, as a
// refund through Tessera does. A part refund names no ticket, so the tickets stay valid and no credit
// note is issued (refund the tickets through Tessera for one). Refunds Tessera made itself carry
// `source: tessera` in their metadata and are recorded by the refund that made them.
import { sql } from 'kysely';
import { cancelOrderTickets, touchOrderAndAttendees } from '../attendees';
import { fromStripeAmount, type Stripe } from '../payments';
import type { Ctx } from '../platform/context';

export async function recordRefundMadeInStripe(ctx: Ctx, refund: Stripe.Refund): Promise<void> {
  if (refund.metadata?.source === 'tessera') return;
  if (refund.status === 'failed' || refund.status === 'canceled') return;
  const paymentIntent =
    typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
  if (!paymentIntent) return;
  const order = await ctx.db
    .selectFrom('orders')
    .innerJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
    .select(['orders.id', 'orders.status', 'orders.event_id', 'orders.currency', 'orders.total_minor'])
    .select('orders.refunded_minor')
    .where('card_checkouts.payment_intent_id', '=', paymentIntent)
    .where('card_checkouts.workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirst();
  if (order?.status !== 'paid') return;
  const amountMinor = fromStripeAmount(refund.amount, order.currency);
  if (amountMinor < order.total_minor - order.refunded_minor) {
    await touchOrderAndAttendees(ctx, order.id, { refunded_minor: order.refunded_minor + amountMinor });
    ctx.services.log.info(
      { orderId: order.id, amountMinor },
      'a part refund made in Stripe is recorded: the tickets stay valid, no credit note',
    );
    return;
  }
  const event = await ctx.db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', order.event_id)
    .executeTakeFirstOrThrow();
  await cancelOrderTickets(ctx, event, order.id, 'refunded');
  await ctx.db
    .updateTable('orders')
    .set({ refunded_minor: sql`refunded_minor + ${amountMinor}` })
    .where('id', '=', order.id)
    .execute();
}
