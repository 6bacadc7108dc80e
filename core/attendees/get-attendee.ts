import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { attendeeSchema, attendeeView } from './attendee-view';
import { loadAttendee } from './load-attendee';

export const getAttendee = defineOperation({
  name: 'getAttendee',
  title: 'Get an attendee',
  description:
    'Returns one attendee (one ticket) with ticket type, order, validity and check-in; personal fields need people:read. Needs attendees:read.',
  scope: 'attendees:read',
  effect: 'read',
  problems: ['attendeeNotFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), attendeeId: uuid('The attendee id.') }),
  output: attendeeSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return attendeeView(ctx.actor, await loadAttendee(ctx, event.id, input.attendeeId), ctx.request.origin);
  },
});
