import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { lookAhead } from '../receiver-address';
import { eventTypeName, olderHookKeys } from '../subscription-rules';
import { hookFields, madeHookSchema, subscribe, subscribed } from './hook-input';

export const createHook = defineOperation({
  name: 'createHook',
  title: 'Subscribe a callback',
  description:
    "Subscribes an automation platform's callback (Zapier, Make, n8n, Pipedream or any), unsigned, to one event type. Needs webhooks:write (older keys: webhooks:read) and the type's scopes.",
  scope: 'webhooks:write',
  olderKeys: olderHookKeys,
  effect: 'write',
  activity: subscribed,
  idempotent: true,
  problems: ['eventType', 'webhookUrl', 'webhookHttps', 'webhookPrivate', 'tooManyHooks'],
  input: v.object({
    url: hookFields.url,
    event: eventTypeName('The event type (see list_event_types).'),
    eventId: v.optional(hookFields.eventId),
    client: v.optional(hookFields.client),
  }),
  output: madeHookSchema,
  before: (_ctx, input) => lookAhead(input.url),
  handler: (ctx, input) => subscribe(ctx, input),
});
