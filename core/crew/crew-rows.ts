// The rows the crew views are rendered from: a crew member with whether their crew ticket is valid,
// and a shift with the name its place is shown by (its own, or else the door's or room's).
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { validOrderStatuses } from '../sales';

/** Crew members, each with has_ticket: their ticket is active and its order paid or free. */
export function crewMemberQuery(db: Db) {
  return db
    .selectFrom('crew_members')
    .selectAll('crew_members')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('attendees')
            .innerJoin('orders', 'orders.id', 'attendees.order_id')
            .select('attendees.id')
            .whereRef('attendees.id', '=', 'crew_members.attendee_id')
            .where('attendees.status', '=', 'active')
            .where('orders.status', 'in', validOrderStatuses),
        )
        .as('has_ticket'),
    );
}

/** Shifts, each with shown_place_name. place_id names a door or a room by its kind. */
export function shiftQuery(db: Db) {
  return db
    .selectFrom('shifts')
    .leftJoin('doors', (join) =>
      join.onRef('doors.id', '=', 'shifts.place_id').on('shifts.place_kind', '=', 'door'),
    )
    .leftJoin('rooms', (join) =>
      join.onRef('rooms.id', '=', 'shifts.place_id').on('shifts.place_kind', '=', 'room'),
    )
    .selectAll('shifts')
    .select(sql<string | null>`coalesce(shifts.place_name, doors.name, rooms.name)`.as('shown_place_name'));
}

export type CrewMemberJoinedRow = Awaited<
  ReturnType<ReturnType<typeof crewMemberQuery>['executeTakeFirstOrThrow']>
>;
export type ShiftJoinedRow = Awaited<ReturnType<ReturnType<typeof shiftQuery>['executeTakeFirstOrThrow']>>;
