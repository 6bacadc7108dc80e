// The outbox: every change that has a webhook event type writes its message in the same
// transaction as the change, so the dispatcher sends exactly what happened, even after a crash.
import { type WebhookEventType, webhookEventTypes } from '../../db/values';
import type { Ctx } from './context';
import { newMessageId } from './ids';

export { type WebhookEventType, webhookEventTypes };

export interface OutboxMessage {
  type: WebhookEventType;
  eventId: string | null;
  data: Record<string, unknown>;
}

/** Records a message; ctx.db must be the transaction of the change. Returns its webhook id. */
export async function emit(ctx: Ctx, message: OutboxMessage): Promise<string> {
  const messageId = newMessageId();
  const timestamp = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('outbox')
    .values({
      message_id: messageId,
      workspace_id: ctx.actor.workspaceId,
      event_id: message.eventId,
      type: message.type,
      payload: JSON.stringify({ type: message.type, timestamp, data: message.data }),
      created_utc: timestamp,
      dispatched_utc: null,
    })
    .execute();
  ctx.services.outboxSignal.notify();
  return messageId;
}
