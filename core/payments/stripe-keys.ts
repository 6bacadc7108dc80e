// The shapes of the secrets an organiser gives to connect Stripe: a secret key (sk_) or a restricted
// key (rk_), each in test or live mode by its prefix, and the signing secret (whsec_) of the webhook
// endpoint they made in Stripe's dashboard (or the one `stripe listen` prints).
import type { StripeMode } from '../../db/values';

export const secretKeyPattern = /^(?:sk|rk)_(?:test|live)_[A-Za-z0-9]{16,247}$/;
export const secretKeyMessage =
  'Must be a Stripe secret key (sk_test_…, sk_live_…) or restricted key (rk_test_…, rk_live_…), as the dashboard shows it under Developers, API keys.';

export const webhookSecretPattern = /^whsec_[A-Za-z0-9+/=_-]{16,250}$/;
export const webhookSecretMessage =
  "Must be the endpoint's signing secret (whsec_…), as Stripe's dashboard shows it for the endpoint or `stripe listen` prints it.";

/** test or live, from the key's prefix. */
export function modeOfKey(key: string): StripeMode {
  return /^(?:sk|rk)_live_/.test(key) ? 'live' : 'test';
}

/** Whether the key is a restricted one (rk_): it may lack a permission a secret key has. */
export function isRestrictedKey(key: string): boolean {
  return key.startsWith('rk_');
}

/** All that is ever shown of a key: its last four characters. */
export function lastFour(key: string): string {
  return key.slice(-4);
}
