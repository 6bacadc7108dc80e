import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { attendeeSchema, attendeeView } from './attendee-view';
import { cancelTickets } from './cancel-tickets';
import { loadAttendee } from './load-attendee';

export const cancelAttendee = defineOperation({
  name: 'cancelAttendee',
  title: 'Cancel a ticket',
  description:
    "Cancels one attendee's ticket, freeing its place; the order is cancelled once it has no active ticket, and a paid, invoiced order gets a credit note correcting its invoice. Needs attendees:write.",
  scope: 'attendees:write',
  effect: 'destructive',
  activity: { resourceType: 'attendee', resourceId: (_input, attendee) => attendee.attendeeId },
  repeatable: true,
  problems: ['attendeeNotFound', 'alreadyCancelled'],
  idempotent: true,
  input: v.object({ eventId: uuid('The event id.'), attendeeId: uuid('The attendee id.') }),
  output: attendeeSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const attendee = await loadAttendee(ctx, event.id, input.attendeeId);
    if (attendee.status === 'cancelled')
      throw problem('alreadyCancelled', `The ticket was already cancelled at ${attendee.cancelled_utc}.`);
    await cancelTickets(ctx, event, attendee.order_id, [attendee.id], 'cancelled');
    return attendeeView(ctx.actor, await loadAttendee(ctx, event.id, attendee.id), ctx.request.origin);
  },
});
