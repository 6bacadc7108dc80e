import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { eventSchema, eventView } from './event-view';

export const getEvent = defineOperation({
  name: 'getEvent',
  title: 'Get an event',
  description:
    "One event's settings: name, slug, status, venue, time zone, times, languages, currency, modules. Counts: get_event_stats. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  problems: [],
  etag: true,
  input: v.object({ eventId: uuid('The event id.') }),
  output: eventSchema,
  async handler(ctx, input) {
    return eventView(ctx, await loadEvent(ctx, input.eventId));
  },
});
