// The outbox: every change that has a webhook event type writes its message in the same
// transaction as the change, so the dispatcher sends exactly what happened, even after a crash.

import type { Insertable } from 'kysely';
import type { Db } from '../../../db/connect';
import { insertRows, prepare } from '../../../db/prepared';
import type { OutboxTable } from '../../../db/schema';
import { type WebhookEventType, webhookEventTypes } from '../../../db/values';
import type { Ctx } from '../context';
import { newMessageId } from '../ids';

export { type WebhookEventType, webhookEventTypes };

export interface OutboxMessage {
  type: WebhookEventType;
  eventId: string | null;
  data: Record<string, unknown>;
}

type OutboxRow = Omit<Insertable<OutboxTable>, 'id'>;

/** A message as the outbox keeps it: its id, the envelope the dispatcher sends, and when. */
function outboxRow(ctx: Ctx, message: OutboxMessage, timestamp: string): OutboxRow {
  return {
    message_id: newMessageId(),
    workspace_id: ctx.actor.workspaceId,
    event_id: message.eventId,
    type: message.type,
    payload: JSON.stringify({ type: message.type, timestamp, data: message.data }),
    created_utc: timestamp,
    dispatched_utc: null,
  };
}

// Named placeholders are no object Kysely can read the columns of: they are listed. Nothing reads
// an insert's answer: on PostgreSQL it goes with the transaction's next statement (its commit).
const insertMessage = prepare<OutboxRow>(
  (db, p) =>
    db.insertInto('outbox').values({
      message_id: p.message_id,
      workspace_id: p.workspace_id,
      event_id: p.event_id,
      type: p.type,
      payload: p.payload,
      created_utc: p.created_utc,
      dispatched_utc: null,
    }),
  { unread: true },
);

/** Records a message; ctx.db must be the transaction of the change. Returns its webhook id. */
export async function emit(ctx: Ctx, message: OutboxMessage): Promise<string> {
  const row = outboxRow(ctx, message, ctx.clock.now().toISOString());
  await insertMessage.changed(ctx.db, row);
  ctx.services.outboxSignal.notify();
  return row.message_id;
}

// Rows of one multi-row insert: 7 values each, well inside SQLite's and PostgreSQL's limits.
const messagesPerInsert = 200;

/** Records many messages in as few statements as fit (a registration of 50 writes one). */
export async function emitAll(ctx: Ctx, messages: OutboxMessage[]): Promise<string[]> {
  if (messages.length === 1) return [await emit(ctx, messages[0]!)];
  const timestamp = ctx.clock.now().toISOString();
  const rows = messages.map((message) => outboxRow(ctx, message, timestamp));
  for (let i = 0; i < rows.length; i += messagesPerInsert)
    await insertRows(ctx.db, 'outbox', rows.slice(i, i + messagesPerInsert), 'refuse', { unread: true });
  if (rows.length > 0) ctx.services.outboxSignal.notify();
  return rows.map((row) => row.message_id);
}

/** When a message of the past was made and fanned out, and its id. */
export interface PastStamp {
  messageId: string;
  createdUtc: string;
  dispatchedUtc: string;
}

/**
 * Records a message as sent in the past (the sample data's history, its deliveries made already):
 * the dispatcher has nothing to do for it. Answers its outbox id.
 */
export async function recordPast(
  db: Db,
  workspaceId: string,
  message: OutboxMessage,
  stamp: PastStamp,
): Promise<number> {
  const row = await db
    .insertInto('outbox')
    .values({
      message_id: stamp.messageId,
      workspace_id: workspaceId,
      event_id: message.eventId,
      type: message.type,
      payload: JSON.stringify({ type: message.type, timestamp: stamp.createdUtc, data: message.data }),
      created_utc: stamp.createdUtc,
      dispatched_utc: stamp.dispatchedUtc,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
