import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow, type RowLock } from '../platform/pipeline/load-event-row';

/** The ticket type at its event; `forChange` locks it for a change, or as `lock` says (loadEventRow). */
export function loadTicketType(
  ctx: Ctx,
  event: EventRow,
  ticketTypeId: string,
  forChange: boolean | RowLock = false,
) {
  const lock = forChange === true ? 'change' : forChange === false ? undefined : forChange;
  return loadEventRow(ctx, 'ticket_types', event.id, ticketTypeId, 'ticket type', lock);
}
