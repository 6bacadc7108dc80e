import * as v from 'valibot';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { uuid } from '../platform/schemas';
import { eventSchema, eventView } from './event-view';

export const getEvent = defineOperation({
  name: 'getEvent',
  title: 'Get an event',
  description:
    'Returns one event: name, slug, status, whether it is online, venue, time zone, start and end in UTC and venue time, languages, currency and which modules are on. Answers 404 eventNotFound for an id not in this workspace. Needs events:read.',
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
