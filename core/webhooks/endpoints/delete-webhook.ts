import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { deleteWorkspaceRow } from '../../platform/pipeline/update-row';
import { uuid } from '../../platform/schemas';
import { cancelPendingDeliveries } from '../delivery-state';
import { loadWebhook } from './webhook-view';

export const deleteWebhook = defineOperation({
  name: 'deleteWebhook',
  title: 'Remove a webhook endpoint',
  description:
    'Removes a webhook endpoint and cancels waiting deliveries; to pause it, set active false with update_webhook. Needs webhooks:write.',
  scope: 'webhooks:write',
  effect: 'destructive',
  activity: { resourceType: 'webhook', resourceId: (_input, deleted) => deleted.webhookId },
  repeatable: true,
  problems: ['notFound'],
  input: v.object({ webhookId: uuid('The endpoint id.') }),
  output: v.object({ webhookId: uuid('The endpoint removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    // The endpoint before its deliveries, as its attempts' results take them (attempt-results.ts).
    const webhook = await loadWebhook(ctx, input.webhookId, 'removal');
    await cancelPendingDeliveries(ctx.db, ctx.clock, 'webhook', [webhook.id]);
    await deleteWorkspaceRow(ctx, 'webhooks', webhook.id, 'webhook endpoint');
    return { webhookId: webhook.id, deleted: true as const };
  },
});
