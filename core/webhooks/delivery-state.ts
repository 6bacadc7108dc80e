// Changes to deliveries that operations share with the dispatcher.
import type { Db } from '../../db/connect';
import type { NewDeliveryRow } from '../../db/schema';
import type { DeliveryTargetKind } from '../../db/values';
import type { Clock } from '../platform/clock';

/** Deliveries still waiting for receivers that went away are cancelled, not tried. */
export async function cancelPendingDeliveries(
  db: Db,
  clock: Clock,
  kind: DeliveryTargetKind,
  targetIds: readonly string[],
): Promise<void> {
  if (targetIds.length === 0) return;
  await db
    .updateTable('deliveries')
    .set({
      state: 'cancelled',
      next_attempt_utc: null,
      claimed_until_utc: null,
      updated_utc: clock.now().toISOString(),
    })
    .where('target_kind', '=', kind)
    .where('target_id', 'in', targetIds)
    .where('state', '=', 'pending')
    .execute();
}

/** A delivery waiting for its first attempt, due now. */
export function newDelivery(
  fields: Pick<
    NewDeliveryRow,
    'workspace_id' | 'outbox_id' | 'message_id' | 'type' | 'payload' | 'target_kind' | 'target_id'
  >,
  now: string,
): NewDeliveryRow {
  return {
    ...fields,
    state: 'pending',
    attempts: 0,
    next_attempt_utc: now,
    claimed_until_utc: null,
    last_status_code: null,
    created_utc: now,
    updated_utc: now,
  };
}
