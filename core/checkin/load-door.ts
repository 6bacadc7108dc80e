import { doorColumns } from '../../db/columns';
import { prepare } from '../../db/prepared';
import type { DoorRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/** An event's doors, in the organiser's order. */
export function loadEventDoors(ctx: Ctx, eventId: string): Promise<DoorRow[]> {
  return ctx.db
    .selectFrom('doors')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** The door used when none is named: the entrance marked main, else the first entrance. */
export function mainEntrance(doors: DoorRow[]): DoorRow | undefined {
  const entrances = doors.filter((d) => d.kind === 'entrance').sort((a, b) => a.sort_order - b.sort_order);
  return entrances.find((d) => d.main === 1) ?? entrances[0];
}

const entrances = prepare<{ eventId: string }, DoorRow>((db, p) =>
  db.selectFrom('doors').select(doorColumns).where('event_id', '=', p.eventId).where('kind', '=', 'entrance'),
);
const doorById = prepare<{ eventId: string; doorId: string }, DoorRow>((db, p) =>
  db.selectFrom('doors').select(doorColumns).where('event_id', '=', p.eventId).where('id', '=', p.doorId),
);

/** The named door of the event, or its main entrance when none is named; 404 noDoor otherwise. */
export async function loadDoor(ctx: Ctx, eventId: string, doorId: string | undefined): Promise<DoorRow> {
  // The main entrance is picked here rather than by ORDER BY: an event has few doors, and the
  // sort cost the scan a temporary b-tree on every call.
  const door =
    doorId === undefined
      ? mainEntrance(await entrances.rows(ctx.db, { eventId }))
      : await doorById.first(ctx.db, { eventId, doorId });
  if (!door) {
    throw problem(
      'noDoor',
      doorId === undefined ? 'This event has no entrance door.' : `No door ${doorId} at this event.`,
    );
  }
  return door;
}
