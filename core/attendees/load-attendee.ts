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
