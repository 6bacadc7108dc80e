import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow, type RowLock } from '../platform/pipeline/load-event-row';

/** The session at its event, locked as `lock` says (loadEventRow). */
export function loadSession(ctx: Ctx, event: EventRow, sessionId: string, lock?: RowLock) {
  return loadEventRow(ctx, 'sessions', event.id, sessionId, 'session', lock);
}
