import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { stayNow } from './stay-rows';
import { staySchema } from './stay-view';

export const getStay = defineOperation({
  name: 'getStay',
  title: 'Get a hotel stay',
  description:
    'Returns one hotel stay with its status, hotel, room and nights. Names and email need people:read. Needs attendees:read.',
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  etag: true,
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), stayId: uuid('The stay id.') }),
  output: staySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return stayNow(ctx, event.id, input.stayId);
  },
});
