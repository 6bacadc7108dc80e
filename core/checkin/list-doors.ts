import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { doorSchema, doorView } from './door-view';
import { loadEventDoors } from './load-door';

export const listDoors = defineOperation({
  name: 'listDoors',
  title: 'List doors',
  description: "Lists an event's doors (check-in lists) with what each admits; not paged. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  module: 'checkin',
  doors: true,
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.object({ data: v.array(doorSchema) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return { data: (await loadEventDoors(ctx, event.id)).map(doorView) };
  },
});
