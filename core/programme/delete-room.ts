import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { roomView } from './room-view';

export const deleteRoom = defineOperation({
  name: 'deleteRoom',
  title: 'Remove a room',
  description:
    'Removes a room no session is in; while sessions are, it is refused (inUse, naming them): move them with update_session first. Needs program:write.',
  scope: 'program:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: heldRow('rooms', (input) => input.roomId),
    async current(ctx, input) {
      return roomView(await loadEventRow(ctx, 'rooms', input.eventId, input.roomId, 'room'));
    },
  },
  activity: { resourceType: 'room', resourceId: (_input, removed) => removed.roomId },
  input: v.object({ eventId: uuid('The event id.'), roomId: uuid('The room id.') }),
  output: v.object({ roomId: uuid('The room removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Locked: a session placed in it meanwhile is waited for and counted, or finds it gone.
    const room = await loadEventRow(ctx, 'rooms', event.id, input.roomId, 'room', 'removal');
    const sessions = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('room_id', '=', room.id)
      .execute();
    refuseWhileUsed(
      `The room ${room.name}`,
      [
        dependentsOf(
          'session',
          sessions.map((s) => s.id),
        ),
      ],
      'move those sessions to another room (or none) first.',
    );
    await ctx.db.deleteFrom('rooms').where('id', '=', room.id).execute();
    return { roomId: room.id, deleted: true as const };
  },
});
