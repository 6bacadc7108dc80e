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
