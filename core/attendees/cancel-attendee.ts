import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { holdsPlaces } from '../sales/order-status';
import { releasePlaces } from '../sales/places';
import { attendeeCancelled, emitForAttendees } from './attendee-messages';
import { attendeeSchema, attendeeView } from './attendee-view';
import { loadAttendee } from './load-attendee';
import { touchOrderAndAttendees } from './touch-order';

export const cancelAttendee = defineOperation({
  name: 'cancelAttendee',
  title: 'Cancel a ticket',
  description:
    "Cancels one attendee's ticket, freeing its place; the order is cancelled once it has no active ticket. Needs attendees:write.",
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
    const now = ctx.clock.now().toISOString();
    await ctx.db
      .updateTable('attendees')
      .set({ status: 'cancelled', cancelled_utc: now })
      .where('id', '=', attendee.id)
      .execute();
    if (holdsPlaces(attendee.order_status)) {
      const addOns = await ctx.db
        .selectFrom('attendee_add_ons')
        .select('add_on_id')
        .where('attendee_id', '=', attendee.id)
        .execute();
      await releasePlaces(
        ctx,
        attendee.ticket_type_id,
        addOns.map((a) => a.add_on_id),
      );
    }
    const stillActive = await ctx.db
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', attendee.order_id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    await touchOrderAndAttendees(ctx, attendee.order_id, stillActive ? {} : { status: 'cancelled' });
    await emitForAttendees(ctx, attendeeCancelled, event, [attendee.id]);
    return attendeeView(ctx.actor, await loadAttendee(ctx, event.id, attendee.id));
  },
});
