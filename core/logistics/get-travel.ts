import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { travelNow } from './travel-rows';
import { travelSchema } from './travel-view';

export const getTravel = defineOperation({
  name: 'getTravel',
  title: 'Get a journey',
  description:
    'Returns one journey with its status, mode, places and times. Names and the booking reference need people:read. Needs attendees:read.',
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  etag: true,
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), travelId: uuid('The travel id.') }),
  output: travelSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return travelNow(ctx, event.id, input.travelId);
  },
});
