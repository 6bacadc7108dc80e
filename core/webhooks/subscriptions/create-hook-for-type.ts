import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { lookAhead } from '../receiver-address';
import { eventTypeName, olderHookKeys } from '../subscription-rules';
import { hookFields, madeHookSchema, subscribe, subscribed } from './hook-input';

export const createHookForType = defineOperation({
  name: 'createHookForType',
  title: 'Subscribe a callback to one type',
  description:
    "Like create_hook, with the type as eventType, for platforms with a trigger per type. Needs webhooks:write (older keys: webhooks:read) and the type's scopes.",
  scope: 'webhooks:write',
  olderKeys: olderHookKeys,
  effect: 'write',
  activity: subscribed,
  idempotent: true,
  problems: ['eventType', 'webhookUrl', 'webhookHttps', 'webhookPrivate', 'tooManyHooks'],
  input: v.object({
    eventType: eventTypeName('The event type (see list_event_types).'),
    url: hookFields.url,
    eventId: v.optional(hookFields.eventId),
    client: v.optional(hookFields.client),
  }),
  output: madeHookSchema,
  before: (_ctx, input) => lookAhead(input.url),
  handler: (ctx, input) => subscribe(ctx, { ...input, event: input.eventType }),
});
