import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { roomTag } from './programme-tags';

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
  ifMatch: roomTag,
  activity: { resourceType: 'room', resourceId: (_input, removed) => removed.roomId },
  input: v.object({ eventId: uuid('The event id.'), roomId: uuid('The room id.') }),
  output: v.object({ roomId: uuid('The room removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held by invoke for removal (ifMatch.hold): a session placed in it meanwhile is waited for and
    // counted, or finds it gone.
    const room = await loadEventRow(ctx, 'rooms', event.id, input.roomId, 'room');
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
