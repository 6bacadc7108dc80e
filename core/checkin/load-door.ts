import type { DoorRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/** The named door of the event, or its main entrance when none is named; 404 noDoor otherwise. */
export async function loadDoor(ctx: Ctx, eventId: string, doorId: string | undefined): Promise<DoorRow> {
  let query = ctx.db.selectFrom('doors').selectAll().where('event_id', '=', eventId);
  query =
    doorId === undefined
      ? query.where('kind', '=', 'entrance').orderBy('main', 'desc').orderBy('sort_order').limit(1)
      : query.where('id', '=', doorId);
  const door = await query.executeTakeFirst();
  if (!door) {
    throw problem(
      'noDoor',
      doorId === undefined ? 'This event has no entrance door.' : `No door ${doorId} at this event.`,
    );
  }
  return door;
}
