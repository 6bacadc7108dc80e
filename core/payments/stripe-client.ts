// The one typed Stripe client of core: made from a workspace's connection (its key decrypted), it
// offers the few calls card payments need, each through the official SDK with its own types, and
// turns Stripe's refusals into this service's problems (stripe-sdk.ts). Amounts go in and come out
// as this service's minor units (minor-units.ts).
import type { Services } from '../platform/services';
import { toStripeAmount } from './minor-units';
import { callStripe, type Stripe, stripeFor, stripeSdk } from './stripe-sdk';

/** One line of an order as Checkout shows it: a ticket type or an add-on, its price with VAT. */
export interface CheckoutLine {
  name: string;
  /** Said under the name: the event, the VAT included. */
  description?: string;
  quantity: number;
  /** The price of one, in the order's minor units. */
  unitMinor: number;
}

/** What a Checkout session is made for: exactly one order. */
export interface CheckoutOrder {
  orderId: string;
  /** The order's reference, shown to the buyer and kept in Stripe's metadata. */
  reference: string;
  workspaceId: string;
  eventId: string;
  /** ISO 4217, as the order is priced. */
  currency: string;
  lines: readonly CheckoutLine[];
  successUrl: string;
  cancelUrl: string;
  /** When Stripe expires the session (30 minutes to 24 hours after it is made). */
  expiresAt: Date;
  customerEmail?: string;
  /** Checkout's language, when the buyer's is one it has. */
  locale?: Stripe.Checkout.SessionCreateParams.Locale;
}

/** What connecting learns of a key: the account it belongs to, when the key may read it. */
export interface KeyCheck {
  accountId: string | null;
  /** The account's name as Stripe shows it, when known. */
  accountName: string | null;
}

export interface StripeClient {
  /** Proves the key works: the account when it may read it, else its balance. */
  checkKey(): Promise<KeyCheck>;
  createCheckoutSession(order: CheckoutOrder): Promise<Stripe.Checkout.Session>;
  retrieveSession(sessionId: string): Promise<Stripe.Checkout.Session>;
  expireSession(sessionId: string): Promise<Stripe.Checkout.Session>;
  /** A refund of a payment, whole (no amount) or of `amountMinor`; the idempotency key makes a retry safe. */
  createRefund(refund: {
    paymentIntentId: string;
    currency: string;
    amountMinor?: number;
    idempotencyKey: string;
    metadata?: Record<string, string>;
  }): Promise<Stripe.Refund>;
  retrieveRefund(refundId: string): Promise<Stripe.Refund>;
  retrieveCharge(chargeId: string): Promise<Stripe.Charge>;
  /** The events of these types made at or after `since`, oldest first (reconciliation's source). */
  listEventsSince(since: Date, types: readonly string[]): Promise<Stripe.Event[]>;
}

/** The SDK's parameters for a Checkout session of one order, amounts in Stripe's units. */
export function checkoutParams(order: CheckoutOrder): Stripe.Checkout.SessionCreateParams {
  const currency = order.currency.toLowerCase();
  return {
    mode: 'payment',
    client_reference_id: order.orderId,
    line_items: order.lines.map((line) => ({
      quantity: line.quantity,
      price_data: {
        currency,
        unit_amount: toStripeAmount(line.unitMinor, order.currency),
        product_data: {
          name: line.name,
          ...(line.description ? { description: line.description } : {}),
        },
      },
    })),
    success_url: order.successUrl,
    cancel_url: order.cancelUrl,
    expires_at: Math.floor(order.expiresAt.getTime() / 1000),
    ...(order.customerEmail ? { customer_email: order.customerEmail } : {}),
    ...(order.locale ? { locale: order.locale } : {}),
    metadata: {
      orderId: order.orderId,
      reference: order.reference,
      workspaceId: order.workspaceId,
      eventId: order.eventId,
    },
    payment_intent_data: { metadata: { orderId: order.orderId, reference: order.reference } },
  };
}

export async function stripeClient(
  services: Pick<Services, 'stripeApi'>,
  secretKey: string,
): Promise<StripeClient> {
  const stripe = await stripeFor(secretKey, services.stripeApi);
  return {
    async checkKey() {
      try {
        const account = await stripe.accounts.retrieveCurrent();
        return {
          accountId: account.id,
          accountName: account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? null,
        };
      } catch (error) {
        // A restricted key may not read the account: its balance proves it works all the same.
        if (!(error instanceof Error && 'type' in error && error.type === 'StripePermissionError'))
          return callStripe('reading the account', () => Promise.reject(error));
      }
      await callStripe('reading the balance', () => stripe.balance.retrieve());
      return { accountId: null, accountName: null };
    },
    createCheckoutSession: (order) =>
      callStripe('making the checkout session', () =>
        stripe.checkout.sessions.create(checkoutParams(order), {
          idempotencyKey: `checkout-${order.orderId}`,
        }),
      ),
    retrieveSession: (sessionId) =>
      callStripe('reading the checkout session', () => stripe.checkout.sessions.retrieve(sessionId)),
    expireSession: (sessionId) =>
      callStripe('expiring the checkout session', () => stripe.checkout.sessions.expire(sessionId)),
    createRefund: (refund) =>
      callStripe('refunding', () =>
        stripe.refunds.create(
          {
            payment_intent: refund.paymentIntentId,
            ...(refund.amountMinor === undefined
              ? {}
              : { amount: toStripeAmount(refund.amountMinor, refund.currency) }),
            ...(refund.metadata ? { metadata: refund.metadata } : {}),
          },
          { idempotencyKey: refund.idempotencyKey },
        ),
      ),
    retrieveRefund: (refundId) => callStripe('reading the refund', () => stripe.refunds.retrieve(refundId)),
    retrieveCharge: (chargeId) => callStripe('reading the charge', () => stripe.charges.retrieve(chargeId)),
    listEventsSince: (since, types) =>
      callStripe('listing events', async () => {
        const events: Stripe.Event[] = [];
        const created = { gte: Math.floor(since.getTime() / 1000) };
        for await (const event of stripe.events.list({ created, types: [...types], limit: 100 }))
          events.push(event);
        return events.reverse();
      }),
  };
}

/**
 * A Stripe event from a webhook request, verified with the SDK's signature check against the
 * endpoint's signing secret (the body exactly as received). Throws the SDK's
 * StripeSignatureVerificationError when it does not verify.
 */
export async function verifiedStripeEvent(
  body: string | Buffer,
  signatureHeader: string,
  signingSecret: string,
): Promise<Stripe.Event> {
  const Sdk = await stripeSdk();
  return Sdk.webhooks.constructEventAsync(body, signatureHeader, signingSecret);
}
