// People inside a door, on both stores: the door row's count plus what scans added to its slots in
// door_inside (migration 0036). On PostgreSQL an uncapped door's scans count in the slot of their
// connection, so concurrent scans take no common row lock; a door with a capacity counts on its
// row, where the capacity is checked. SQLite (one writer) counts on the row and has no slots.
// Every reader of "inside" asks here.

import { sql } from 'kysely';
import type { Db } from '../../db/schema';

const slotsSum = sql<number>`coalesce((select sum(s.inside) from door_inside s where s.door_id = doors.id), 0)`;
const insideNow = sql<number>`doors.inside + ${slotsSum}`;

/** People inside each door of the event, by door id. */
export async function insideByDoor(db: Db, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('doors')
    .select(['id', insideNow.as('inside')])
    .where('event_id', '=', eventId)
    .execute();
  return new Map(rows.map((r) => [r.id, Number(r.inside)]));
}

/** People inside one door (0 for a door that is not there). */
export async function insideDoor(db: Db, doorId: string): Promise<number> {
  const row = await db
    .selectFrom('doors')
    .select(insideNow.as('inside'))
    .where('id', '=', doorId)
    .executeTakeFirst();
  return Number(row?.inside ?? 0);
}

/**
 * Moves a door's slots into its row's count, so that a capacity can be checked on the row. The
 * caller holds the row FOR UPDATE (no scan in flight at the door, none starting).
 */
export async function foldSlotsIntoDoor(db: Db, doorId: string): Promise<void> {
  const slots = await db
    .deleteFrom('door_inside')
    .where('door_id', '=', doorId)
    .returning('inside')
    .execute();
  const added = slots.reduce((n, s) => n + Number(s.inside), 0);
  if (slots.length > 0)
    await db
      .updateTable('doors')
      .set({ inside: sql`inside + ${added}` })
      .where('id', '=', doorId)
      .execute();
}
