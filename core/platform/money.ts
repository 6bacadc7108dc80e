// Money is kept as integer minor units and shown with the currency's own decimals (ISO 4217).

const decimalsCache = new Map<string, number>();

export function currencyDecimals(currency: string): number {
  let decimals = decimalsCache.get(currency);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
    decimalsCache.set(currency, decimals);
  }
  return decimals;
}

export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  return Intl.supportedValuesOf('currency').includes(code);
}

export function toMajor(minor: number, currency: string): number {
  const decimals = currencyDecimals(currency);
  return Number((minor / 10 ** decimals).toFixed(decimals));
}

export function toMinor(major: number, currency: string): number {
  return Math.round(major * 10 ** currencyDecimals(currency));
}

/** Whether an amount has no more decimals than its currency has (1500.5 JPY has too many). */
export function fitsCurrency(amount: number, currency: string): boolean {
  const scaled = amount * 10 ** currencyDecimals(currency);
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** VAT within a price that includes it, rounded to a minor unit (as invoices state it). */
export function vatWithin(grossMinor: number, rate: number): number {
  return Math.round((grossMinor * rate) / (100 + rate));
}
