import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { attendeeQuery } from './attendee-view';

export async function loadAttendee(ctx: Ctx, eventId: string, attendeeId: string) {
  const row = await attendeeQuery(ctx.db)
    .where('attendees.id', '=', attendeeId)
    .where('attendees.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('attendeeNotFound', `No attendee ${attendeeId} at this event.`);
  return row;
}
