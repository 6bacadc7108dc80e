// The figures a printed invoice or credit note shows beside its lines: amounts with the currency's
// own decimals (JPY none, KWD three), and the VAT summed per rate, in the document's currency and,
// where the document states its VAT in a second currency too, in that one: the stored converted
// total shared out over the rates by their VAT (largest remainder), so the rates add up to it.
import { currencyDecimals, toMajor, toMinor } from '../platform/money';

export interface FigureLine {
  vatRate: number;
  total: number;
  vat: number;
}

export interface VatRow {
  rate: number;
  net: number;
  vat: number;
  /** The VAT in the second currency; null when the document states none. */
  converted: number | null;
}

/** 1234.5 KWD -> "1,234.500 KWD"; -12000 JPY -> "-12,000 JPY". */
export function amountText(value: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  const digits = new Intl.NumberFormat('en-GB', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
  return `${digits} ${currency}`;
}

/** A rate as printed: 25 -> "25 %", 12.5 -> "12.5 %". */
export function rateText(rate: number): string {
  return `${Number(rate.toFixed(4))} %`;
}

/** Splits `whole` minor units over `parts` in proportion, each a whole unit, summing to `whole`. */
export function shareOut(whole: number, parts: number[]): number[] {
  const sum = parts.reduce((n, p) => n + p, 0);
  if (sum === 0) return parts.map(() => 0);
  const exact = parts.map((p) => (whole * p) / sum);
  const shares = exact.map((x) => Math.trunc(x));
  let left = whole - shares.reduce((n, s) => n + s, 0);
  const order = exact
    .map((x, i) => ({ i, rest: Math.abs(x - Math.trunc(x)) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  const step = Math.sign(left);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]! += step;
    left -= step;
  }
  return shares;
}

/** The VAT per rate, rates in ascending order. */
export function vatRows(
  lines: FigureLine[],
  currency: string,
  second: { currency: string; vat: number } | null,
): VatRow[] {
  const byRate = new Map<number, { total: number; vat: number }>();
  for (const line of lines) {
    const row = byRate.get(line.vatRate) ?? { total: 0, vat: 0 };
    row.total += toMinor(line.total, currency);
    row.vat += toMinor(line.vat, currency);
    byRate.set(line.vatRate, row);
  }
  const rates = [...byRate.keys()].sort((a, b) => a - b);
  const converted = second
    ? shareOut(
        toMinor(second.vat, second.currency),
        rates.map((r) => byRate.get(r)!.vat),
      )
    : null;
  return rates.map((rate, i) => {
    const row = byRate.get(rate)!;
    return {
      rate,
      net: toMajor(row.total - row.vat, currency),
      vat: toMajor(row.vat, currency),
      converted: converted && second ? toMajor(converted[i]!, second.currency) : null,
    };
  });
}
