// One emitter per webhook event type: the only function that builds that type's message from the
// changed resource. Use cases and the import both call it, so a type's body is written once; each
// emitter lives with its resource in a `<resource>-messages.ts` file, where the emitters test finds
// every one (exactly one per type, each body accepted by its type's published schema).
import type { Db } from '../../../db/connect';
import type { Ctx } from '../context';
import { emitAll, type OutboxMessage, type PastStamp, recordPast, type WebhookEventType } from './outbox';

export type { PastStamp };

/** What a message carries besides its type: the event it is about (none for communities) and its data. */
export interface MessageContent {
  eventId: string | null;
  data: Record<string, unknown>;
}

export interface MessageEmitter<T extends WebhookEventType = WebhookEventType, Change = never> {
  readonly type: T;
  /**
   * The message of one change, as the outbox keeps it (unredacted: the dispatcher redacts); `origin`
   * is the service's public origin, which its absolute links (an attendee's ticketUrl) are made on.
   */
  message(change: Change, origin: string): OutboxMessage;
  /** Records the message of one change; ctx.db must be the transaction of the change. */
  emit(ctx: Ctx, change: Change): Promise<void>;
  /** Records the messages of many changes, in order, in as few statements as fit. */
  emitEach(ctx: Ctx, changes: readonly Change[]): Promise<void>;
  /**
   * Records the message of a change made in the past, fanned out then, under the given id and times
   * (the sample data's webhook history). Answers where the outbox keeps it.
   */
  recordPast(
    db: Db,
    workspaceId: string,
    change: Change,
    origin: string,
    stamp: PastStamp,
  ): Promise<{ id: number; messageId: string; type: T }>;
}

export function messageEmitter<T extends WebhookEventType, Change>(
  type: T,
  build: (change: Change, origin: string) => MessageContent,
): MessageEmitter<T, Change> {
  const message = (change: Change, origin: string): OutboxMessage => ({ type, ...build(change, origin) });
  return {
    type,
    message,
    async emit(ctx, change) {
      await emitAll(ctx, [message(change, ctx.request.origin)]);
    },
    async emitEach(ctx, changes) {
      if (changes.length > 0)
        await emitAll(
          ctx,
          changes.map((change) => message(change, ctx.request.origin)),
        );
    },
    async recordPast(db, workspaceId, change, origin, stamp) {
      const id = await recordPast(db, workspaceId, message(change, origin), stamp);
      return { id, messageId: stamp.messageId, type };
    },
  };
}
