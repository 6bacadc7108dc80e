import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { hookFields, subscribe } from './hook-input';
import { hookSchema } from './hook-view';
import { eventTypeName, olderHookKeys } from './subscription-rules';

export const createHookForType = defineOperation({
  name: 'createHookForType',
  title: 'Subscribe a callback to one type',
  description:
    'The same as subscribing through POST /hooks, with the event type in the path (one path per trigger, as automation platforms like it): url (https, public) and optionally eventId. Accepts an idempotency key.',
  scope: 'webhooks:write',
  olderKeys: olderHookKeys,
  effect: 'write',
  idempotent: true,
  problems: ['eventType', 'webhookUrl', 'webhookHttps', 'webhookPrivate', 'tooManyHooks'],
  input: v.object({
    eventType: eventTypeName('The event type: one of GET /webhooks/event-types.'),
    url: hookFields.url,
    eventId: v.optional(hookFields.eventId),
    client: v.optional(hookFields.client),
  }),
  output: hookSchema,
  handler: (ctx, input) => subscribe(ctx, { ...input, event: input.eventType }),
});
