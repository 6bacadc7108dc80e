import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { uuid } from '../../platform/schemas';
import { loadWebhook, webhookSchema, webhookView } from './webhook-view';

export const getWebhook = defineOperation({
  name: 'getWebhook',
  title: 'Get a webhook endpoint',
  description:
    'Returns one webhook endpoint: event types, on or why stopped, last delivery; never the secret. Needs webhooks:read.',
  scope: 'webhooks:read',
  effect: 'read',
  etag: true,
  problems: ['notFound'],
  input: v.object({ webhookId: uuid('The endpoint id.') }),
  output: webhookSchema,
  async handler(ctx, input) {
    return webhookView(await loadWebhook(ctx, input.webhookId));
  },
});
