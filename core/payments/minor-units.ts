// The one conversion between this service's amounts (integer minor units with the currency's ISO 4217
// decimals: 2 for NOK, 0 for JPY, 3 for KWD) and the amounts Stripe's API takes and answers (the
// currency's "smallest unit" as Stripe counts it). They differ where Stripe counts a currency
// otherwise than ISO (as Node's Intl has it): ISK and HUF are sent with two decimals, which for a
// whole ISK or HUF are 00, and an amount Stripe reports in them is read back. Stripe's three-decimal
// currencies (KWD, BHD, JOD, OMR, TND) are counted in fils as ISO counts them, but a charge's last
// digit must be 0: an amount that is not a whole number of tens of fils cannot be charged exactly.
// https://docs.stripe.com/currencies#minor-units
import { currencyDecimals } from '../platform/money';

/** Stripe's zero-decimal currencies: the amount is the number of whole units. */
const zeroDecimal = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Stripe's three-decimal currencies: amounts in thousandths whose last digit is 0. */
const threeDecimal = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** An amount Stripe cannot be asked for exactly (a KWD amount of odd fils, a fraction of an ISK). */
export class NotChargeable extends Error {}

/** The decimals of Stripe's unit for the currency (ISO 4217 code, any case). */
export function stripeDecimals(currency: string): number {
  const code = currency.toUpperCase();
  if (zeroDecimal.has(code)) return 0;
  if (threeDecimal.has(code)) return 3;
  // Every other currency (ISK and HUF among them, whole units in ISO) has two decimals at Stripe.
  return 2;
}

/** Our minor units of the currency as Stripe's amount; NotChargeable when it cannot be exact. */
export function toStripeAmount(minor: number, currency: string): number {
  const code = currency.toUpperCase();
  if (!Number.isSafeInteger(minor)) throw new NotChargeable(`${minor} is not a whole number of minor units.`);
  const shift = stripeDecimals(code) - currencyDecimals(code);
  const scale = 10 ** Math.abs(shift);
  if (shift < 0 && minor % scale !== 0)
    throw new NotChargeable(`${minor} minor units of ${code} are not a whole number of Stripe's units.`);
  const amount = shift >= 0 ? minor * scale : minor / scale;
  if (threeDecimal.has(code) && amount % 10 !== 0)
    throw new NotChargeable(
      `Stripe charges ${code} in tens of the smallest unit only: ${amount} is not a multiple of 10.`,
    );
  return amount;
}

/** Stripe's amount in the currency as our minor units (a refund or payment Stripe reports). */
export function fromStripeAmount(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  if (!Number.isSafeInteger(amount)) throw new NotChargeable(`${amount} is not a whole Stripe amount.`);
  const shift = stripeDecimals(code) - currencyDecimals(code);
  const scale = 10 ** Math.abs(shift);
  if (shift > 0 && amount % scale !== 0)
    throw new NotChargeable(`Stripe's ${amount} in ${code} is not a whole number of minor units.`);
  return shift >= 0 ? amount / scale : amount * scale;
}
