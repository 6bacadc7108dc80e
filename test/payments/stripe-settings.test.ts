// TESSERA_STRIPE_API_URL, the tests' way to point the Stripe SDK at a stand-in: an origin only; and
// TESSERA_CHECKOUT_HOLD_MINUTES, a card order's hold, within Stripe's limits.
import { describe, expect, it } from 'vitest';
import { checkoutHoldFrom, SettingsError, settingsFrom, stripeApiFrom } from '../../src/settings';

describe('TESSERA_STRIPE_API_URL', () => {
  it("is absent by default: the SDK speaks to Stripe's own API", () => {
    expect(settingsFrom({}, {}).stripeApi).toBeUndefined();
  });

  it('takes an origin, https or http (stripe-mock), with its port', () => {
    expect(stripeApiFrom('https://localhost:12112')).toEqual({
      protocol: 'https',
      host: 'localhost',
      port: 12112,
    });
    expect(stripeApiFrom('http://127.0.0.1:12111')).toEqual({
      protocol: 'http',
      host: '127.0.0.1',
      port: 12111,
    });
    expect(stripeApiFrom('https://stripe.test')).toEqual({
      protocol: 'https',
      host: 'stripe.test',
      port: 443,
    });
  });

  it('refuses anything but an origin, naming the setting', () => {
    for (const wrong of ['localhost:12112', 'https://localhost/v1', 'ftp://localhost'])
      expect(() => stripeApiFrom(wrong)).toThrow(SettingsError);
    expect(() => stripeApiFrom('https://localhost/v1')).toThrow(/TESSERA_STRIPE_API_URL/);
  });
});

describe('TESSERA_CHECKOUT_HOLD_MINUTES', () => {
  it("holds a card order's places 30 minutes unless set, and takes 30 to 1440 (Stripe's limits)", () => {
    expect(checkoutHoldFrom(undefined)).toBe(30);
    expect(checkoutHoldFrom('45')).toBe(45);
    expect(checkoutHoldFrom('1440')).toBe(1440);
    for (const wrong of ['29', '1441', '30.5', 'half an hour'])
      expect(() => checkoutHoldFrom(wrong), wrong).toThrow(/TESSERA_CHECKOUT_HOLD_MINUTES/);
  });
});
