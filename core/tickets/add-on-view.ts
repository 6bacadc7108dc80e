import * as v from 'valibot';
import type { AddOnRow, EventRow } from '../../db/schema';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import { pricedPlaces, pricedPlacesEntries } from './priced-places';

export const addOnSchema = v.object({
  addOnId: uuid('The add-on id.'),
  eventId: uuid('The event id.'),
  name: text('Name, as the order line shows it.'),
  description: v.nullable(text('Description.')),
  ...pricedPlacesEntries,
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
    ...pricedPlaces(event, row),
    sortOrder: row.sort_order,
    updatedUtc: row.updated_utc,
  };
}
