// The buyer back from Stripe's Checkout (the session's id in the address Stripe sends them to): the
// session is read from Stripe and a payment made is recorded at once, so the page shows the tickets
// even before Stripe's event arrives, and a lost event loses no payment.
import { stripeContext, workspaceStripe } from '../payments';
import type { Services } from '../platform/services';
import { openCheckout } from './card-checkout';
import { recordCheckoutPaid } from './card-paid';

export async function confirmCheckoutReturn(
  services: Services,
  origin: string,
  orderId: string,
  sessionId: string,
): Promise<void> {
  if (!/^cs_\w{1,250}$/.test(sessionId)) return;
  const held = await services.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .select(['card_checkouts.workspace_id', 'orders.status'])
    .where('card_checkouts.order_id', '=', orderId)
    .where('card_checkouts.session_id', '=', sessionId)
    .executeTakeFirst();
  if (held?.status !== 'pending') return;
  const stripe = await workspaceStripe(services, held.workspace_id);
  if (!stripe) return;
  try {
    const session = await stripe.retrieveSession(sessionId);
    const ctx = stripeContext(services, held.workspace_id, origin);
    await services.writes.run((trx, clock) => recordCheckoutPaid({ ...ctx, db: trx, clock }, session));
  } catch (error) {
    // The page says the payment is being confirmed; Stripe's event or the reconciliation records it.
    services.log.warn(
      { err: error, orderId },
      "a buyer's return from Checkout could not be confirmed with Stripe",
    );
  }
}

/**
 * A card order whose session is not made yet (an approved request: the buyer was e-mailed its page),
 * its session made as the buyer comes to pay. Stripe failing, the page offers no link this time and
 * the hold runs on. Nothing for other orders.
 */
export async function openCheckoutForBuyer(
  services: Services,
  origin: string,
  orderId: string,
): Promise<void> {
  const waiting = await services.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .select('card_checkouts.workspace_id')
    .where('card_checkouts.order_id', '=', orderId)
    .where('card_checkouts.session_id', 'is', null)
    .where('orders.status', '=', 'pending')
    .executeTakeFirst();
  if (!waiting) return;
  try {
    await openCheckout(stripeContext(services, waiting.workspace_id, origin), orderId, {
      expireOnFailure: false,
    });
  } catch (error) {
    services.log.warn({ err: error, orderId }, "an approved card order's checkout could not be made");
  }
}
