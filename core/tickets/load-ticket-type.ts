import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow, type RowLock } from '../platform/pipeline/load-event-row';

/** The ticket type at its event, locked as `lock` says (loadEventRow). */
export function loadTicketType(ctx: Ctx, event: EventRow, ticketTypeId: string, lock?: RowLock) {
  return loadEventRow(ctx, 'ticket_types', event.id, ticketTypeId, 'ticket type', lock);
}
