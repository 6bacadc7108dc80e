import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { hookFields, subscribe } from './hook-input';
import { hookSchema, maxHooks } from './hook-view';
import { eventTypeName, olderHookKeys } from './subscription-rules';

export const createHook = defineOperation({
  name: 'createHook',
  title: 'Subscribe a callback',
  description: `Subscribes an automation callback (Zapier, Make, n8n) to one event type: url (https, public), event (one of the 22 types), optionally eventId (only that event). Each message is then POSTed to the url unsigned, as { id, type, timestamp, ...data }; a callback answering 410 is unsubscribed. The key needs webhooks:write (webhooks:read for keys made before 15 October 2026) and the scopes of what the type delivers. At most ${maxHooks} per workspace (400 tooManyHooks). The answer's id is the subscription to DELETE (REST also sends it in Location). Accepts an idempotency key.`,
  scope: 'webhooks:write',
  olderKeys: olderHookKeys,
  effect: 'write',
  idempotent: true,
  problems: ['eventType', 'webhookUrl', 'webhookHttps', 'webhookPrivate', 'tooManyHooks'],
  input: v.object({
    url: hookFields.url,
    event: eventTypeName('The event type: one of GET /webhooks/event-types.'),
    eventId: v.optional(hookFields.eventId),
    client: v.optional(hookFields.client),
  }),
  output: hookSchema,
  handler: (ctx, input) => subscribe(ctx, input),
});
