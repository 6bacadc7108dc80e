import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';

/** The ticket type at its event (loadEventRow). */
export function loadTicketType(ctx: Ctx, event: EventRow, ticketTypeId: string) {
  return loadEventRow(ctx, 'ticket_types', event.id, ticketTypeId, 'ticket type');
}
