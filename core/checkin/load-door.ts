import { doorColumns } from '../../db/columns';
import type { Db } from '../../db/connect';
import { prepare } from '../../db/prepared';
import type { DoorRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { isProblem, type Problem, problem } from '../platform/problems';

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

/** The event's entrances (the main one is picked from them: mainEntrance). */
export const entrancesQuery = (db: Db, eventId: string) =>
  db.selectFrom('doors').select(doorColumns).where('event_id', '=', eventId).where('kind', '=', 'entrance');
/** The event's door with this id. */
export const doorByIdQuery = (db: Db, eventId: string, doorId: string) =>
  db.selectFrom('doors').select(doorColumns).where('event_id', '=', eventId).where('id', '=', doorId);

const entrances = prepare<{ eventId: string }, DoorRow>((db, p) => entrancesQuery(db, p.eventId));
const doorById = prepare<{ eventId: string; doorId: string }, DoorRow>((db, p) =>
  doorByIdQuery(db, p.eventId, p.doorId),
);

/** The named door of the event, or its main entrance when none is named; 404 noDoor otherwise. */
export async function loadDoor(ctx: Ctx, eventId: string, doorId: string | undefined): Promise<DoorRow> {
  // The main entrance is picked here rather than by ORDER BY: an event has few doors, and the
  // sort cost the scan a temporary b-tree on every call.
  const door =
    doorId === undefined
      ? mainEntrance(await entrances.rows(ctx.db, { eventId }))
      : await doorById.first(ctx.db, { eventId, doorId });
  return doorOrProblem(door, doorId);
}

/** The door found, or 404 noDoor. */
export function doorOrProblem(door: DoorRow | undefined, doorId: string | undefined): DoorRow {
  if (!door) {
    throw problem(
      'noDoor',
      doorId === undefined ? 'This event has no entrance door.' : `No door ${doorId} at this event.`,
    );
  }
  return door;
}

/**
 * For a scan whose write met a foreign key (an operation's namedRowGone): noDoor once the door it
 * names is gone, removed between the scan's read of it and its write.
 */
export async function doorRemovedMeanwhile(
  ctx: Ctx,
  eventId: string,
  doorId: string | undefined,
): Promise<Problem | undefined> {
  try {
    await loadDoor(ctx, eventId, doorId);
    return undefined;
  } catch (error) {
    if (isProblem(error)) return error;
    throw error;
  }
}
