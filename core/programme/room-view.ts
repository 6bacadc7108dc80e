// The public Room resource: a place sessions are held in; one session at a time.
import * as v from 'valibot';
import type { RoomRow } from '../../db/schema';
import { dateTime, int32, text, uuid } from '../platform/schemas';

export const roomSchema = v.object({
  roomId: uuid('The room id.'),
  eventId: uuid('The event id.'),
  name: text('Name, as the programme shows it.'),
  capacity: v.nullable(int32('Seats; null when not limited.')),
  location: v.nullable(text('Where to find it in the venue (floor, wing).')),
  sortOrder: int32('Place in the list.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type RoomView = v.InferOutput<typeof roomSchema>;

export function roomView(row: RoomRow): RoomView {
  return {
    roomId: row.id,
    eventId: row.event_id,
    name: row.name,
    capacity: row.capacity,
    location: row.location,
    sortOrder: row.sort_order,
    updatedUtc: row.updated_utc,
  };
}
