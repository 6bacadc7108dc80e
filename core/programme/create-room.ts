import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { nextSortOrder } from '../platform/storage/sort-order';
import { roomFields } from './programme-fields';
import { roomSchema, roomView } from './room-view';

export const createRoom = defineOperation({
  name: 'createRoom',
  title: 'Add a room',
  description:
    "Adds a room to an event's programme; a room holds one session at a time. Needs program:write.",
  scope: 'program:write',
  effect: 'write',
  activity: {
    resourceType: 'room',
    resourceId: (_input, room) => room.roomId,
    summary: (_input, room) => room.name,
  },
  idempotent: true,
  extension: true,
  module: 'program',
  problems: [],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(roomFields, ['name']),
  }),
  output: roomSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      capacity: input.capacity ?? null,
      location: input.location ?? null,
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'rooms', event.id)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('rooms').values(row).execute();
    return roomView(row);
  },
});
