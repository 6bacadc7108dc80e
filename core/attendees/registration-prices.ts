// What an order of a checked registration costs: each ticket at its type's price, less what a
// discount code takes off tickets of the types it names, then the add-ons each person chose (those
// a ticket type includes come with the ticket); VAT within each price, rounded to a minor unit per
// line as invoices state it. The ticket prices are kept on the tickets (registration-order.ts), so
// an invoice bills what was sold.
import type { DiscountCodeRow } from '../../db/schema';
import { vatWithin } from '../platform/money';
import { problem } from '../platform/problems';
import { codeAppliesTo, discountedPrice } from '../sales';
import type { CheckedRegistration } from './registration-input';

export interface RegistrationPrices {
  /** Each person's ticket price, in the order of the people, VAT included. */
  ticketPrices: number[];
  totalMinor: number;
  vatMinor: number;
  /** What the code took off in all (0 without one). */
  discountMinor: number;
  /** Tickets the code applies to: its uses. */
  codeUses: number;
}

/** Prices of nothing: a registration issued free, or an order given free on purpose (complimentary). */
export function freePrices(registration: CheckedRegistration, codeUses = 0): RegistrationPrices {
  return {
    ticketPrices: registration.people.map(() => 0),
    totalMinor: 0,
    vatMinor: 0,
    discountMinor: 0,
    codeUses,
  };
}

/** How many of the registration's tickets a code applies to; refused when it applies to none. */
export function codeUsesOf({ people }: CheckedRegistration, code: DiscountCodeRow): number {
  const uses = people.filter((person) => codeAppliesTo(code, person.ticketTypeId!)).length;
  if (uses === 0) throw notApplicable(code);
  return uses;
}

const notApplicable = (code: DiscountCodeRow) =>
  problem('registrationRefused', `The discount code ${code.code} is for other ticket types than these.`, {
    reason: 'discountCodeNotApplicable',
  });

export function registrationPrices(
  { people, types, addOns }: CheckedRegistration,
  code?: DiscountCodeRow,
): RegistrationPrices {
  const prices: RegistrationPrices = {
    ticketPrices: [],
    totalMinor: 0,
    vatMinor: 0,
    discountMinor: 0,
    codeUses: 0,
  };
  for (const person of people) {
    const type = types.get(person.ticketTypeId!)!;
    const applies = code !== undefined && codeAppliesTo(code, type.id);
    const price = applies ? discountedPrice(code, type.price_minor) : type.price_minor;
    prices.ticketPrices.push(price);
    prices.totalMinor += price;
    prices.vatMinor += vatWithin(price, type.vat_rate);
    prices.discountMinor += type.price_minor - price;
    if (applies) prices.codeUses += 1;
    for (const { addOnId, quantity } of person.addOns ?? []) {
      const addOn = addOns.get(addOnId)!;
      const priceMinor = addOn.price_minor * (quantity ?? 1);
      prices.totalMinor += priceMinor;
      prices.vatMinor += vatWithin(priceMinor, addOn.vat_rate);
    }
  }
  if (code !== undefined && prices.codeUses === 0) throw notApplicable(code);
  return prices;
}
