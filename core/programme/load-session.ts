import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';

/** The session at its event (loadEventRow). */
export function loadSession(ctx: Ctx, event: EventRow, sessionId: string) {
  return loadEventRow(ctx, 'sessions', event.id, sessionId, 'session');
}
