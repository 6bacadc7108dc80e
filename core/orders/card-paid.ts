// What Stripe says of a card order's Checkout session, recorded: paid, the order is paid through the
// one path of mark-paid (order.paid, its tickets valid and announced, the invoice, the e-mails);
// expired unpaid, its hold ends (expire-order.ts). Stripe's webhook, the buyer's return and the
// reconciliation job all come here, in the transaction they write in, so whichever comes first
// records it and the others find it done.
import type { Stripe } from '../payments';
import type { Ctx } from '../platform/context';
import { expireHeldOrder } from './expire-order';
import { payOrder } from './pay-order';

export type CheckoutOutcome = 'paid' | 'alreadyPaid' | 'expired' | 'notPaid' | 'notOurs' | 'paidTooLate';

/** The order a session was made for, as its metadata and our own record agree. */
async function checkoutOf(ctx: Ctx, session: Stripe.Checkout.Session) {
  const orderId = session.client_reference_id ?? session.metadata?.orderId;
  if (!orderId || !/^[0-9a-f-]{36}$/.test(orderId)) return undefined;
  const row = await ctx.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .select(['orders.id', 'orders.status', 'orders.event_id', 'card_checkouts.session_id'])
    .where('card_checkouts.order_id', '=', orderId)
    .where('card_checkouts.workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirst();
  // A session of another order (or made for another service on the same account) is not ours.
  return row && (row.session_id === null || row.session_id === session.id) ? row : undefined;
}

export async function recordCheckoutPaid(
  ctx: Ctx,
  session: Stripe.Checkout.Session,
): Promise<CheckoutOutcome> {
  if (session.status !== 'complete' || session.payment_status !== 'paid') return 'notPaid';
  const order = await checkoutOf(ctx, session);
  if (!order) return 'notOurs';
  const paymentIntent =
    typeof session.payment_intent === 'string'
      ? session.payment_intent
      : (session.payment_intent?.id ?? null);
  await ctx.db
    .updateTable('card_checkouts')
    .set({ session_id: session.id, payment_intent_id: paymentIntent })
    .where('order_id', '=', order.id)
    .execute();
  if (order.status === 'paid') return 'alreadyPaid';
  if (order.status !== 'pending') {
    // Stripe expires a session at the hold's end, and the hold ends only once Stripe said it expired
    // (or could not be reached well past it): a payment after that is for the organiser to refund.
    ctx.services.log.error(
      { orderId: order.id, status: order.status, session: session.id, workspaceId: ctx.actor.workspaceId },
      'a card payment arrived for an order no longer held: refund it in Stripe',
    );
    return 'paidTooLate';
  }
  const event = await ctx.db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', order.event_id)
    .executeTakeFirstOrThrow();
  await payOrder(ctx, event, order.id, { method: 'card', provider: 'Stripe', reference: paymentIntent });
  return 'paid';
}

/** A session that expired unpaid: its order's hold ends, its places go back. */
export async function recordCheckoutExpired(
  ctx: Ctx,
  session: Stripe.Checkout.Session,
): Promise<CheckoutOutcome> {
  const order = await checkoutOf(ctx, session);
  if (!order) return 'notOurs';
  return (await expireHeldOrder(ctx, order.id)) ? 'expired' : 'notPaid';
}
