import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { heldRow } from '../../platform/pipeline/tagged-row';
import { updateWorkspaceRow } from '../../platform/pipeline/update-row';
import { uuid } from '../../platform/schemas';
import { changedNow } from '../../platform/storage/change-stamp';
import { warningsField, withWarnings } from '../../platform/warnings';
import { lookAhead } from '../receiver-address';
import { checkAddress, checkDescription, checkEventTypes, webhookFields } from './webhook-input';
import { loadWebhook, webhookSchema, webhookView } from './webhook-view';

export const updateWebhook = defineOperation({
  name: 'updateWebhook',
  title: 'Change a webhook endpoint',
  description:
    'Changes the fields sent; active true restarts an endpoint that stopped. Needs webhooks:write.',
  scope: 'webhooks:write',
  effect: 'write',
  repeatable: true,
  ifMatch: {
    hold: heldRow('webhooks', (input) => input.webhookId),
    current: async (ctx, input) => webhookView(await loadWebhook(ctx, input.webhookId)),
  },
  activity: { resourceType: 'webhook', resourceId: (_input, webhook) => webhook.webhookId },
  problems: ['notFound', 'webhookUrl', 'webhookHttps', 'webhookPrivate', 'eventType'],
  etag: true,
  input: v.object({
    webhookId: uuid('The endpoint id.'),
    url: v.optional(webhookFields.url),
    description: v.optional(webhookFields.description),
    eventTypes: v.optional(webhookFields.eventTypes),
    active: v.optional(webhookFields.active),
  }),
  output: v.object({ ...webhookSchema.entries, warnings: warningsField }),
  before: (_ctx, input) => lookAhead(input.url),
  async handler(ctx, input) {
    const current = await loadWebhook(ctx, input.webhookId);
    const warnings = input.url === undefined ? [] : await checkAddress(ctx, input.url);
    const types = input.eventTypes === undefined ? undefined : checkEventTypes(ctx, input.eventTypes);
    checkDescription(input.description);
    const next = {
      ...current,
      url: input.url ?? current.url,
      description: input.description === undefined ? current.description : input.description,
      event_types: types ? JSON.stringify(types) : current.event_types,
      active: input.active === undefined ? current.active : input.active ? (1 as const) : (0 as const),
      disabled_reason: input.active === true ? null : current.disabled_reason,
      ...(await changedNow(ctx)),
    };
    await updateWorkspaceRow(ctx, 'webhooks', current.id, 'webhook endpoint', next);
    return withWarnings(webhookView(next), warnings);
  },
});
