import * as v from 'valibot';
import type { AddOnRow, EventRow } from '../../db/schema';
import { toMajor } from '../platform/money';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import { placesLeft } from './places';

export const addOnSchema = v.object({
  addOnId: uuid('The add-on id.'),
  eventId: uuid('The event id.'),
  name: text('Name, as the order line shows it.'),
  description: v.nullable(text('Description.')),
  price: v.pipe(v.number(), v.description('Price, VAT included.')),
  vatRate: v.pipe(v.number(), v.description('VAT rate in percent.')),
  currency: text('ISO 4217 currency.'),
  capacity: v.nullable(int32('How many can be sold; null when unlimited.')),
  taken: int32('How many are held.'),
  remaining: v.nullable(int32('How many are left; null without a limit.')),
  sortOrder: int32('Place in the list.'),
  updatedUtc: dateTime('Last change.'),
});

export function addOnView(
  event: Pick<EventRow, 'currency'>,
  row: AddOnRow,
): v.InferOutput<typeof addOnSchema> {
  return {
    addOnId: row.id,
    eventId: row.event_id,
    name: row.name,
    description: row.description,
    price: toMajor(row.price_minor, event.currency),
    vatRate: row.vat_rate,
    currency: event.currency,
    capacity: row.capacity,
    taken: row.taken,
    remaining: placesLeft(row.capacity, row.taken),
    sortOrder: row.sort_order,
    updatedUtc: row.updated_utc,
  };
}
