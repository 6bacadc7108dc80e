import type { Db } from '../../db/connect';
import { prepare } from '../../db/prepared';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { type AttendeeJoinedRow, attendeeQuery } from './attendee-view';

/** The event's attendee with this id, joined as attendeeQuery joins it. */
export const attendeeByIdQuery = (db: Db, eventId: string, attendeeId: string) =>
  attendeeQuery(db).where('attendees.id', '=', attendeeId).where('attendees.event_id', '=', eventId);
/** The event's ticket with this code, joined as attendeeQuery joins it. */
export const attendeeByCodeQuery = (db: Db, eventId: string, ticketCode: string) =>
  attendeeQuery(db).where('attendees.ticket_code', '=', ticketCode).where('attendees.event_id', '=', eventId);

const attendeeById = prepare<{ attendeeId: string; eventId: string }, AttendeeJoinedRow>((db, p) =>
  attendeeByIdQuery(db, p.eventId, p.attendeeId),
);

/** The event's attendee, joined as attendeeQuery joins it; 404 attendeeNotFound otherwise. */
export async function loadAttendee(ctx: Ctx, eventId: string, attendeeId: string) {
  return attendeeOrProblem(await attendeeById.first(ctx.db, { attendeeId, eventId }), { attendeeId });
}

/** The attendee found, or 404 attendeeNotFound naming what was looked for. */
export function attendeeOrProblem(
  row: AttendeeJoinedRow | undefined,
  by: { attendeeId: string } | { ticketCode: string },
): AttendeeJoinedRow {
  if (row) return row;
  throw problem(
    'attendeeNotFound',
    'attendeeId' in by
      ? `No attendee ${by.attendeeId} at this event.`
      : 'No ticket of this event has this code.',
  );
}

const attendeeByCode = prepare<{ ticketCode: string; eventId: string }, AttendeeJoinedRow>((db, p) =>
  attendeeByCodeQuery(db, p.eventId, p.ticketCode),
);

/** The ticket of the event with this code (as ticketCodeIn read it), if any; another event's is none. */
export function findAttendeeByCode(ctx: Ctx, eventId: string, ticketCode: string) {
  return attendeeByCode.first(ctx.db, { ticketCode, eventId });
}
