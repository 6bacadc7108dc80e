import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { callSchema, callView, loadCall } from './call-view';

export const getCallForSpeakers = defineOperation({
  name: 'getCallForSpeakers',
  title: 'Get the call for speakers',
  description:
    "Returns an event's call for speakers: its window (UTC and venue time), whether it is open now, and the formats and tracks it offers. Needs cfp:read.",
  scope: 'cfp:read',
  effect: 'read',
  extension: true,
  module: 'cfp',
  problems: [],
  etag: true,
  input: v.object({ eventId: uuid('The event id.') }),
  output: callSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return callView(ctx, event, await loadCall(ctx, event.id));
  },
});
