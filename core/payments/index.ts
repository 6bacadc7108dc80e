// Money in by card: a workspace's connection to its Stripe account, the one typed Stripe client
// (the SDK is imported by stripe-sdk.ts alone, on first use), the conversion of amounts to Stripe's
// units, and the Stripe events received at the workspace's webhook address.

export {
  checkoutHoldLimits,
  checkoutHoldMinutes,
  defaultCheckoutHoldMinutes,
  sessionExpiry,
} from './checkout-hold';
export { connectStripe } from './connect-stripe';
export { disconnectStripe } from './disconnect-stripe';
export { getStripeConnection } from './get-stripe-connection';
export { fromStripeAmount, NotChargeable, stripeDecimals, toStripeAmount } from './minor-units';
export { resealStripeSecrets } from './rekey-stripe-secrets';
export {
  type CheckoutLine,
  type CheckoutOrder,
  checkoutParams,
  type StripeClient,
  stripeClient,
} from './stripe-client';
export {
  loadStripeConnection,
  stripeConnectionSchema,
  stripeWebhookEvents,
  stripeWebhookPath,
} from './stripe-connection';
export {
  type HandledStripeEvent,
  receiveStripeEvent,
  type StripeEventHandler,
  type StripeEventHandlers,
  stripeContext,
} from './stripe-events';
export { preloadWhenConnected, type Stripe } from './stripe-sdk';
export { workspaceStripe } from './workspace-stripe';
