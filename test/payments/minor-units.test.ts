// The one conversion between this service's minor units (ISO 4217 decimals) and Stripe's amounts,
// both ways: two-decimal NOK as it is, zero-decimal JPY as whole yen, three-decimal KWD in fils
// with the last digit 0, and ISK and HUF (whole units in ISO) with Stripe's two decimals.
import { describe, expect, it } from 'vitest';
import { fromStripeAmount, NotChargeable, toStripeAmount } from '../../core/payments';

describe("amounts in Stripe's units", () => {
  it('sends NOK in øre and reads øre back', () => {
    expect(toStripeAmount(220_000, 'NOK')).toBe(220_000);
    expect(fromStripeAmount(220_000, 'nok')).toBe(220_000);
  });

  it('sends JPY as whole yen (zero-decimal) and reads yen back', () => {
    expect(toStripeAmount(5_000, 'JPY')).toBe(5_000);
    expect(fromStripeAmount(5_000, 'jpy')).toBe(5_000);
  });

  it('sends KWD in fils (three decimals) and reads fils back', () => {
    expect(toStripeAmount(12_350, 'KWD')).toBe(12_350);
    expect(fromStripeAmount(12_350, 'kwd')).toBe(12_350);
  });

  it('refuses a KWD amount whose last digit of fils is not 0: Stripe charges tens of fils only', () => {
    expect(() => toStripeAmount(12_345, 'KWD')).toThrow(NotChargeable);
  });

  it("sends ISK and HUF, whole units in ISO, with Stripe's two decimals, and reads them back", () => {
    expect(toStripeAmount(5, 'ISK')).toBe(500);
    expect(fromStripeAmount(500, 'isk')).toBe(5);
    expect(toStripeAmount(1_200, 'HUF')).toBe(120_000);
    expect(fromStripeAmount(120_000, 'HUF')).toBe(1_200);
    expect(() => fromStripeAmount(150, 'ISK')).toThrow(NotChargeable);
  });
});
