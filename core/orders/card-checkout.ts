// A card order's Checkout: the order is written `pending` with its places held (holdForCheckout, in
// the order's transaction), then its Stripe Checkout session is made after the commit, since no write
// waits on a call to Stripe (SQLite has one writer): made once (the idempotency key is the order's
// id, so a retry gets the same session back) and stored in a second transaction. Stripe failing, the
// order expires at once (its places go back) and the caller is told Stripe's problem. The session is
// for exactly the order: its lines as its invoice bills them (the price sold at, VAT included, said
// under each name), the event's name, its currency.
import * as v from 'valibot';
import { activeTicketIds } from '../attendees';
import { ticketLines } from '../invoicing';
import {
  type CheckoutLine,
  checkoutHoldMinutes,
  connectStripe,
  type StripeClient,
  sessionExpiry,
  workspaceStripe,
} from '../payments';
import type { Ctx } from '../platform/context';
import { detail, mention } from '../platform/mentions';
import { problem } from '../platform/problems';
import { dateTime } from '../platform/schemas';
import { expireHeldOrder } from './expire-order';

export const checkoutSchema = v.object({
  paymentUrl: v.pipe(
    v.string(),
    v.url(),
    v.description("Stripe's Checkout page, where the buyer pays: the link to send."),
  ),
  holdUntil: dateTime('Places held until then; unpaid by then, the order expires.'),
});

export type Checkout = v.InferOutput<typeof checkoutSchema>;

/** Holds a new card order's places for its checkout (in the order's transaction). */
export async function holdForCheckout(ctx: Ctx, orderId: string, holdMinutes?: number): Promise<void> {
  const now = ctx.clock.now();
  const minutes = holdMinutes ?? checkoutHoldMinutes(ctx.services);
  await ctx.db
    .insertInto('card_checkouts')
    .values({
      order_id: orderId,
      workspace_id: ctx.actor.workspaceId,
      session_id: null,
      session_url: null,
      hold_until_utc: new Date(now.getTime() + minutes * 60_000).toISOString(),
      payment_intent_id: null,
      created_utc: now.toISOString(),
    })
    .execute();
}

/**
 * A card order whose request was approved: its hold starts again from now (the buyer is told to pay
 * now, not when they asked). False for an order not paid by card.
 */
export async function restartCheckoutHold(ctx: Ctx, orderId: string): Promise<boolean> {
  const minutes = checkoutHoldMinutes(ctx.services);
  const moved = await ctx.db
    .updateTable('card_checkouts')
    .set({ hold_until_utc: new Date(ctx.clock.now().getTime() + minutes * 60_000).toISOString() })
    .where('order_id', '=', orderId)
    .where('session_id', 'is', null)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** The public page a buyer comes back to from Checkout (paid, or having gone back). */
export function orderPagePath(slug: string, orderId: string): string {
  return `/e/${slug}/orders/${orderId}`;
}

/**
 * The order's Checkout link: the session already made, or made now and stored. Null when the order
 * no longer awaits its card payment (paid or expired meanwhile) and no session was ever made.
 */
export async function openCheckout(
  ctx: Ctx,
  orderId: string,
  { expireOnFailure = true }: { expireOnFailure?: boolean } = {},
): Promise<Checkout | null> {
  const row = await ctx.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'card_checkouts.session_url',
      'card_checkouts.hold_until_utc',
      'card_checkouts.workspace_id',
      'orders.status',
      'orders.reference',
      'orders.currency',
      'orders.buyer_email',
      'orders.event_id',
      'events.name as event_name',
      'events.slug',
    ])
    .where('card_checkouts.order_id', '=', orderId)
    .executeTakeFirst();
  if (!row) return null;
  if (row.session_url) return { paymentUrl: row.session_url, holdUntil: row.hold_until_utc };
  if (row.status !== 'pending') return null;
  try {
    const stripe = await connectedStripe(ctx, row.workspace_id);
    const page = `${ctx.request.origin}${orderPagePath(row.slug, orderId)}`;
    const session = await stripe.createCheckoutSession({
      orderId,
      reference: row.reference,
      workspaceId: row.workspace_id,
      eventId: row.event_id,
      currency: row.currency,
      lines: await checkoutLines(ctx, orderId, row.event_name),
      // Stripe puts the session's id in place of the braces: the return is checked with it.
      successUrl: `${page}?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${page}?checkout=cancelled`,
      expiresAt: sessionExpiry(new Date(row.hold_until_utc), ctx.clock.now()),
      ...(row.buyer_email ? { customerEmail: row.buyer_email } : {}),
    });
    if (!session.url) throw problem('stripeUnavailable', 'Stripe made the checkout session without a link.');
    await ctx.services.writes.run(
      (trx) =>
        trx
          .updateTable('card_checkouts')
          .set({ session_id: session.id, session_url: session.url })
          .where('order_id', '=', orderId)
          .where('session_id', 'is', null)
          .execute(),
      { ahead: true },
    );
    return { paymentUrl: session.url, holdUntil: row.hold_until_utc };
  } catch (error) {
    // Nobody can pay without the link: the places go back to sale at once (unless the buyer, coming
    // to pay an approved order, may try again: its hold runs on).
    if (!expireOnFailure) throw error;
    await ctx.services.writes.run((trx, clock) => expireHeldOrder({ ...ctx, db: trx, clock }, orderId));
    ctx.services.log.warn(
      { orderId, workspaceId: row.workspace_id, err: error },
      'a card order expired at once: its checkout session could not be made',
    );
    throw error;
  }
}

/** The workspace's Stripe client; 409 stripeNotConnected when it was disconnected meanwhile. */
async function connectedStripe(ctx: Ctx, workspaceId: string): Promise<StripeClient> {
  const stripe = await workspaceStripe(ctx.services, workspaceId);
  if (stripe) return stripe;
  throw problem(
    'stripeNotConnected',
    detail`A card payment needs the workspace connected to Stripe: ${mention(connectStripe)} with its secret key.`,
  );
}

/** The order's lines as Checkout shows them: what its invoice bills, priced lines only. */
async function checkoutLines(ctx: Ctx, orderId: string, eventName: string): Promise<CheckoutLine[]> {
  const lines = await ticketLines(ctx, await activeTicketIds(ctx, orderId));
  return lines
    .filter((line) => line.unitPriceMinor > 0)
    .map((line) => ({
      name: line.name,
      description: line.vatRate > 0 ? `${eventName}, VAT ${line.vatRate} % included` : eventName,
      quantity: line.quantity,
      unitMinor: line.unitPriceMinor,
    }));
}
