// The Stripe events card payments act on, as the workspace's webhook address hands them over
// (core/payments/stripe-events.ts: verified, recorded once, in the transaction that records it).
import type { StripeEventHandlers } from '../payments';
import { recordCheckoutExpired, recordCheckoutPaid } from './card-paid';
import { recordRefundMadeInStripe } from './stripe-made-refund';

export const cardPaymentEvents: StripeEventHandlers = {
  'checkout.session.completed': async (ctx, event) => void (await recordCheckoutPaid(ctx, event.data.object)),
  'checkout.session.expired': async (ctx, event) =>
    void (await recordCheckoutExpired(ctx, event.data.object)),
  'refund.created': (ctx, event) => recordRefundMadeInStripe(ctx, event.data.object),
};
