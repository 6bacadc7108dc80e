// A crew member or a shift found only at its event (another event's or workspace's id answers 404
// notFound as if it did not exist), and their views as the crew lists show them.

import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { crewOnShifts, shiftsOfCrew } from './assignments';
import { type CrewMemberJoinedRow, crewMemberQuery, type ShiftJoinedRow, shiftQuery } from './crew-rows';
import { type CrewMemberView, crewMemberView, type ShiftView, shiftView } from './crew-view';

/** The event's crew member, joined as the crew lists join them; 404 notFound otherwise. */
export async function loadCrewMember(ctx: Ctx, eventId: string, id: string): Promise<CrewMemberJoinedRow> {
  const row = await crewMemberQuery(ctx.db)
    .where('crew_members.id', '=', id)
    .where('crew_members.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw crewMemberNotFound(id);
  return row;
}

/** A change of a shift locks it with the people on it first (shift-places.ts lockCrewThenShift). */
export async function loadShift(ctx: Ctx, eventId: string, id: string): Promise<ShiftJoinedRow> {
  const row = await shiftQuery(ctx.db)
    .where('shifts.id', '=', id)
    .where('shifts.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw shiftNotFound(id);
  return row;
}

export const crewMemberNotFound = (id: string) => problem('notFound', `No crew member ${id} at this event.`);
export const shiftNotFound = (id: string) => problem('notFound', `No shift ${id} at this event.`);

/** A crew member as the crew list shows them to this caller. */
export async function crewMemberNow(ctx: Ctx, eventId: string, id: string): Promise<CrewMemberView> {
  const row = await loadCrewMember(ctx, eventId, id);
  return crewMemberView(ctx.actor, row, (await shiftsOfCrew(ctx.db, [row.id])).get(row.id)!);
}

/** A shift as the shift list shows it. */
export async function shiftNow(ctx: Ctx, event: EventRow, id: string): Promise<ShiftView> {
  const row = await loadShift(ctx, event.id, id);
  return shiftView(event, row, (await crewOnShifts(ctx.db, [row.id])).get(row.id)!);
}
