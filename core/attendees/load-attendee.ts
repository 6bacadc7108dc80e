import { prepare } from '../../db/prepared';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { type AttendeeJoinedRow, attendeeQuery } from './attendee-view';

const attendeeById = prepare<{ attendeeId: string; eventId: string }, AttendeeJoinedRow>((db, p) =>
  attendeeQuery(db).where('attendees.id', '=', p.attendeeId).where('attendees.event_id', '=', p.eventId),
);

export async function loadAttendee(ctx: Ctx, eventId: string, attendeeId: string) {
  const row = await attendeeById.first(ctx.db, { attendeeId, eventId });
  if (!row) throw problem('attendeeNotFound', `No attendee ${attendeeId} at this event.`);
  return row;
}

const attendeeByCode = prepare<{ ticketCode: string; eventId: string }, AttendeeJoinedRow>((db, p) =>
  attendeeQuery(db)
    .where('attendees.ticket_code', '=', p.ticketCode)
    .where('attendees.event_id', '=', p.eventId),
);

/** The ticket of the event with this code (as ticketCodeIn read it), if any; another event's is none. */
export function findAttendeeByCode(ctx: Ctx, eventId: string, ticketCode: string) {
  return attendeeByCode.first(ctx.db, { ticketCode, eventId });
}

/** The ticket of the event with this code (as ticketCodeIn read it); another event's is not found. */
export async function loadAttendeeByCode(ctx: Ctx, eventId: string, ticketCode: string) {
  const row = await findAttendeeByCode(ctx, eventId, ticketCode);
  if (!row) throw problem('attendeeNotFound', 'No ticket of this event has this code.');
  return row;
}
