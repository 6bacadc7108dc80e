// The outbox: every change that has a webhook event type writes its message in the same
// transaction as the change, so the dispatcher sends exactly what happened, even after a crash.

import { insertRows, prepare } from '../../db/prepared';
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
const insertMessage = prepare<{
  messageId: string;
  workspaceId: string;
  eventId: string | null;
  type: WebhookEventType;
  payload: string;
  createdUtc: string;
}>((db, p) =>
  db.insertInto('outbox').values({
    message_id: p.messageId,
    workspace_id: p.workspaceId,
    event_id: p.eventId,
    type: p.type,
    payload: p.payload,
    created_utc: p.createdUtc,
    dispatched_utc: null,
  }),
);

export async function emit(ctx: Ctx, message: OutboxMessage): Promise<string> {
  const messageId = newMessageId();
  const timestamp = ctx.clock.now().toISOString();
  await insertMessage.changed(ctx.db, {
    messageId,
    workspaceId: ctx.actor.workspaceId,
    eventId: message.eventId,
    type: message.type,
    payload: JSON.stringify({ type: message.type, timestamp, data: message.data }),
    createdUtc: timestamp,
  });
  ctx.services.outboxSignal.notify();
  return messageId;
}

// Rows of one multi-row insert: 7 values each, well inside SQLite's and PostgreSQL's limits.
const messagesPerInsert = 200;

/** Records many messages in as few statements as fit (a registration of 50 writes one). */
export async function emitAll(ctx: Ctx, messages: OutboxMessage[]): Promise<string[]> {
  if (messages.length === 1) return [await emit(ctx, messages[0]!)];
  const timestamp = ctx.clock.now().toISOString();
  const rows = messages.map((message) => ({
    message_id: newMessageId(),
    workspace_id: ctx.actor.workspaceId,
    event_id: message.eventId,
    type: message.type,
    payload: JSON.stringify({ type: message.type, timestamp, data: message.data }),
    created_utc: timestamp,
    dispatched_utc: null,
  }));
  for (let i = 0; i < rows.length; i += messagesPerInsert)
    await insertRows(ctx.db, 'outbox', rows.slice(i, i + messagesPerInsert));
  if (rows.length > 0) ctx.services.outboxSignal.notify();
  return rows.map((row) => row.message_id);
}
