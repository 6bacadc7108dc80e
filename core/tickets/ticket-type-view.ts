// The public TicketType resource. Access codes are never included.
import * as v from 'valibot';
import type { EventRow, TicketTypeRow } from '../../db/schema';
import { ticketVisibilities } from '../../db/values';
import { dateTime, int32, localTime, text, uuid } from '../platform/schemas';
import { toLocalOrNull } from '../platform/time';
import { pricedPlaces, pricedPlacesEntries } from './priced-places';

export const ticketTypeSchema = v.object({
  ticketTypeId: uuid('The ticket type id.'),
  eventId: uuid('The event id.'),
  name: text('Name.'),
  description: text('Description.'),
  ...pricedPlacesEntries,
  maxPerOrder: int32('At most this many in one order, 1 to 100.'),
  visibility: v.pipe(
    v.picklist(ticketVisibilities),
    v.description('public, code (sold with an access code) or hidden.'),
  ),
  requiresApproval: v.pipe(v.boolean(), v.description('An order waits for organiser approval.')),
  salesStartUtc: v.nullable(dateTime('Sales open.')),
  salesEndUtc: v.nullable(dateTime('Sales close.')),
  salesStartLocal: v.nullable(localTime('Sales open')),
  salesEndLocal: v.nullable(localTime('Sales close')),
  includedAddOnIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Add-ons included as a bundle.'),
  ),
  sortOrder: int32('Place in the list.'),
  retiredUtc: v.nullable(
    dateTime(
      'Tessera extension: when it was retired (no new tickets, off the public page, kept for the tickets sold); null while on sale.',
    ),
  ),
  waitingList: v.pipe(
    v.boolean(),
    v.description(
      'Tessera extension: sold out, the public page takes names for its waiting list, and places that come free are offered to the next in line.',
    ),
  ),
  updatedUtc: v.nullable(dateTime('Last change.')),
});

/** The waiting list switch a ticket type is made or changed with. */
export const waitingListField = v.optional(
  v.pipe(v.boolean(), v.description('Tessera extension: a waiting list when sold out. Default false.')),
);

export type TicketTypeView = v.InferOutput<typeof ticketTypeSchema>;

export function ticketTypeView(
  event: Pick<EventRow, 'currency' | 'time_zone'>,
  row: TicketTypeRow,
): TicketTypeView {
  return {
    ticketTypeId: row.id,
    eventId: row.event_id,
    name: row.name,
    description: row.description,
    ...pricedPlaces(event, row),
    maxPerOrder: row.max_per_order,
    visibility: row.visibility,
    requiresApproval: row.requires_approval === 1,
    salesStartUtc: row.sales_start_utc,
    salesEndUtc: row.sales_end_utc,
    salesStartLocal: toLocalOrNull(row.sales_start_utc, event.time_zone),
    salesEndLocal: toLocalOrNull(row.sales_end_utc, event.time_zone),
    includedAddOnIds: JSON.parse(row.included_add_on_ids) as string[],
    sortOrder: row.sort_order,
    retiredUtc: row.retired_utc,
    waitingList: row.waiting_list === 1,
    updatedUtc: row.updated_utc,
  };
}
