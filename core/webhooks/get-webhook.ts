import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { uuid } from '../platform/schemas';
import { loadWebhook, webhookSchema, webhookView } from './webhook-view';

export const getWebhook = defineOperation({
  name: 'getWebhook',
  title: 'Get a webhook endpoint',
  description:
    'Returns one webhook endpoint: address (query hidden), event types, switched on or not (and why it stopped, if it did by itself), and how its last delivery went. Never the secret. Answers 404 notFound for an id not in this workspace. Needs webhooks:read.',
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
