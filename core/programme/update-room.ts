import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { roomFields } from './programme-fields';
import { roomTag } from './programme-tags';
import { roomSchema, roomView } from './room-view';

export const updateRoom = defineOperation({
  name: 'updateRoom',
  title: 'Change a room',
  description: 'Changes a room; it cannot have fewer seats than a session in it. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  activity: { resourceType: 'room', resourceId: (_input, room) => room.roomId },
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound'],
  etag: true,
  ifMatch: roomTag,
  input: v.object({
    eventId: uuid('The event id.'),
    roomId: uuid('The room id.'),
    ...changeFields(roomFields),
  }),
  output: roomSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): a session's capacity checked against the room
    // meanwhile waits (it holds the room shared), or is waited for and seen by the check below.
    const room = await loadEventRow(ctx, 'rooms', event.id, input.roomId, 'room');
    const capacity = input.capacity === undefined ? room.capacity : input.capacity;
    if (capacity !== null) {
      const larger = await ctx.db
        .selectFrom('sessions')
        .select(['title', 'capacity'])
        .where('room_id', '=', room.id)
        .where('capacity', '>', capacity)
        .executeTakeFirst();
      if (larger) {
        throw problem('invalidRequest', `"${larger.title}" has ${larger.capacity} seats in this room.`, {
          errors: [
            {
              field: 'capacity',
              message: `A session in the room has ${larger.capacity} seats; give at least that.`,
            },
          ],
        });
      }
    }
    const next = {
      ...room,
      name: input.name?.trim() ?? room.name,
      capacity,
      location: input.location === undefined ? room.location : input.location,
      sort_order: input.sortOrder ?? room.sort_order,
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'rooms', room.id, 'room', next);
    return roomView(next);
  },
});
