// The figures a printed document shows beside its lines (core/documents/document-figures.ts):
// amounts in the currency's own decimals, and the second currency's VAT shared over the rates so
// that they add up to the total the document stores, however the rounding falls.
import { describe, expect, it } from 'vitest';
import { amountText, shareOut, vatRows } from '../../core/documents/document-figures';

describe('amounts as printed', () => {
  it('print JPY without decimals, KWD with three, EUR with two, grouped by thousands', () => {
    expect(amountText(36000, 'JPY')).toBe('36,000 JPY');
    expect(amountText(1234.5, 'KWD')).toBe('1,234.500 KWD');
    expect(amountText(-121, 'EUR')).toBe('-121.00 EUR');
  });
});

describe('the second currency shared over the rates', () => {
  it('adds up to the stored total whatever the rounding', () => {
    expect(shareOut(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareOut(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(shareOut(7, [0, 0])).toEqual([0, 0]);
    for (const [whole, parts] of [
      [54464, [536, 4200]],
      [1001, [3, 3, 3, 1]],
    ] as const)
      expect(shareOut(whole, [...parts]).reduce((a, b) => a + b, 0)).toBe(whole);
  });

  it('gives each rate its net, VAT and converted VAT, rates in ascending order', () => {
    const rows = vatRows(
      [
        { vatRate: 21, total: 242, vat: 42 },
        { vatRate: 12, total: 50, vat: 5.36 },
      ],
      'EUR',
      { currency: 'NOK', vat: 544.64 },
    );
    expect(rows).toEqual([
      { rate: 12, net: 44.64, vat: 5.36, converted: 61.64 },
      { rate: 21, net: 200, vat: 42, converted: 483 },
    ]);
  });
});
