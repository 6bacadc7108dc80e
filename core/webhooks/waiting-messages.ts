// The outbox's messages not yet fanned out, oldest first, a batch at a time: claimed on
// PostgreSQL (another process's batch is skipped), read through the partial index of waiting
// messages (migration 0040), which holds them alone and in order.
import { claiming } from '../../db/dialect';
import type { Db } from '../../db/schema';

export function waitingMessages(db: Db, batch: number) {
  return claiming(
    db,
    db
      .selectFrom('outbox')
      .select(['id', 'message_id', 'workspace_id', 'event_id', 'type', 'created_utc'])
      .where('dispatched_utc', 'is', null)
      .orderBy('id')
      .limit(batch),
  );
}

/**
 * Takes a batch of waiting messages: marks them fanned out at `now` and answers them, oldest first,
 * in one statement (on PostgreSQL a round trip, where a read and then an update were two). The
 * caller's transaction writes their deliveries; should it fail, the mark goes with it.
 */
export async function takeWaitingMessages(db: Db, batch: number, now: string) {
  const taken = await db
    .updateTable('outbox')
    .set({ dispatched_utc: now })
    .where('id', 'in', waitingMessages(db, batch).clearSelect().select('id'))
    .returning(['id', 'message_id', 'workspace_id', 'event_id', 'type', 'created_utc'])
    .execute();
  // An update's returning keeps no order.
  return taken.sort((a, b) => a.id - b.id);
}
