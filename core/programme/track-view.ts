// The public Track resource: a thread of the programme, with the colour it is shown in.
import * as v from 'valibot';
import type { TrackRow } from '../../db/schema';
import { dateTime, int32, text, uuid } from '../platform/schemas';

export const trackSchema = v.object({
  trackId: uuid('The track id.'),
  eventId: uuid('The event id.'),
  name: text('Name, as the programme shows it.'),
  colour: text('Colour the programme shows it in, as #rrggbb.'),
  description: v.nullable(text('Description.')),
  sortOrder: int32('Place in the list.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type TrackView = v.InferOutput<typeof trackSchema>;

export function trackView(row: TrackRow): TrackView {
  return {
    trackId: row.id,
    eventId: row.event_id,
    name: row.name,
    colour: row.colour,
    description: row.description,
    sortOrder: row.sort_order,
    updatedUtc: row.updated_utc,
  };
}
