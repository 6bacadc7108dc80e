import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadSignUp, signUpSchema } from './sign-up-settings';

export const getSignUp = defineOperation({
  name: 'getSignUp',
  title: 'Get sign-up settings',
  description:
    "Returns the event's sign-up settings: whether its public page takes registrations, the payment instructions shown to buyers paying by bank transfer, and whether attendees are sent e-mail. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  extension: true,
  etag: true,
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: signUpSchema,
  async handler(ctx, input) {
    return loadSignUp(ctx.db, await loadEvent(ctx, input.eventId));
  },
});
