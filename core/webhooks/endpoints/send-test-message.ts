import * as v from 'valibot';
import { newMessageId } from '../../platform/ids';
import { defineOperation } from '../../platform/pipeline/operation';
import { dateTime, int32, text, uuid } from '../../platform/schemas';
import { newDelivery } from '../delivery-state';
import { secretKeyOf } from '../signing-secrets';
import { loadWebhook } from './webhook-view';

export const testMessageType = 'webhook.test';

/** The signed body of a test message, as the endpoint receives it. */
export const testMessageSchema = v.object({
  type: v.pipe(v.literal(testMessageType), v.description('Always webhook.test.')),
  timestamp: dateTime('When it was sent for (UTC).'),
  data: v.object({
    webhookId: uuid('The endpoint tested.'),
    note: text('Says that nothing happened.'),
  }),
});

export const sendTestMessage = defineOperation({
  name: 'sendTestMessage',
  title: 'Send a test message',
  description:
    'Sends a signed webhook.test message to an endpoint; list_webhook_deliveries shows the outcome. Needs webhooks:write.',
  scope: 'webhooks:write',
  effect: 'write',
  activity: { resourceType: 'webhook', resourceId: (input) => input.webhookId },
  openWorld: true,
  problems: ['notFound', 'webhooksUnavailable'],
  input: v.object({ webhookId: uuid('The endpoint id.') }),
  output: v.object({
    messageId: text('webhook-id of the test message.'),
    deliveryId: int32('Its delivery, in the deliveries list.'),
    queuedUtc: dateTime('When it was queued.'),
  }),
  async handler(ctx, input) {
    secretKeyOf(ctx.services);
    const webhook = await loadWebhook(ctx, input.webhookId);
    const now = ctx.clock.now().toISOString();
    const messageId = newMessageId();
    const payload: v.InferOutput<typeof testMessageSchema> = {
      type: testMessageType,
      timestamp: now,
      data: { webhookId: webhook.id, note: 'A test message sent on request. Nothing happened.' },
    };
    const { id } = await ctx.db
      .insertInto('deliveries')
      .values(
        newDelivery(
          {
            workspace_id: ctx.actor.workspaceId,
            outbox_id: null,
            message_id: messageId,
            type: testMessageType,
            payload: JSON.stringify(payload),
            target_kind: 'webhook',
            target_id: webhook.id,
          },
          now,
        ),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    ctx.services.outboxSignal.notify({ target_kind: 'webhook', target_id: webhook.id });
    return { messageId, deliveryId: id, queuedUtc: now };
  },
});
