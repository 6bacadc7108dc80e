// What ticket types and add-ons share: a VAT-inclusive price in the event's currency, and places
// (capacity, taken, remaining).
import * as v from 'valibot';
import type { EventRow } from '../../db/schema';
import { toMajor } from '../platform/money';
import { int32, text } from '../platform/schemas';
import { placesLeft } from '../sales';

export const pricedPlacesEntries = {
  price: v.pipe(v.number(), v.description("Price, VAT included, with the currency's own decimals.")),
  vatRate: v.pipe(v.number(), v.description('VAT rate in percent.')),
  currency: text('ISO 4217 currency.'),
  capacity: v.nullable(int32('How many can be sold; null when unlimited.')),
  taken: int32('How many are held by orders that hold places.'),
  remaining: v.nullable(int32('How many are left; null without a limit.')),
};

export function pricedPlaces(
  event: Pick<EventRow, 'currency'>,
  row: { price_minor: number; vat_rate: number; capacity: number | null; taken: number },
) {
  return {
    price: toMajor(row.price_minor, event.currency),
    vatRate: row.vat_rate,
    currency: event.currency,
    capacity: row.capacity,
    taken: row.taken,
    remaining: placesLeft(row.capacity, row.taken),
  };
}
