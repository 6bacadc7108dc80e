// How long a card order holds its places while the buyer is at Stripe's Checkout: the operator's
// setting (TESSERA_CHECKOUT_HOLD_MINUTES), or a payment link's own, within Stripe's limits for a
// session's expiry (30 minutes to 24 hours after it is made).
import type { Services } from '../platform/services';

export const defaultCheckoutHoldMinutes = 30;
export const checkoutHoldLimits = { min: 30, max: 1440 } as const;

/** The hold a card order takes unless its caller names one. */
export function checkoutHoldMinutes(services: Pick<Services, 'checkoutHoldMinutes'>): number {
  return services.checkoutHoldMinutes ?? defaultCheckoutHoldMinutes;
}

/**
 * When Stripe is to expire a session made now for a hold ending at `holdUntil`: the hold's end,
 * but never sooner than Stripe accepts (30 minutes, and a minute's margin for the call's way there).
 * The reconciliation expires the session itself at the hold's end when Stripe's comes later.
 */
export function sessionExpiry(holdUntil: Date, now: Date): Date {
  const earliest = now.getTime() + (checkoutHoldLimits.min + 1) * 60_000;
  return new Date(Math.max(holdUntil.getTime(), earliest));
}
