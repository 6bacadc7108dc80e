// What "registered" means, in one place: valid tickets (not cancelled, order paid or free), crew
// left out. The event statistics, the check-in summary and the sales pace all count it so.

import type { Ctx } from '../platform/context';
import { isValidTicket, validOrderStatuses } from './order-status';
import { type TicketGroup, ticketTotals } from './ticket-totals';

/** The event's registered tickets, to count or narrow further. */
export function registeredTickets(ctx: Ctx, eventId: string) {
  return ctx.db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .where('attendees.event_id', '=', eventId)
    .where('attendees.status', '=', 'active')
    .where('orders.status', 'in', validOrderStatuses)
    .where('ticket_types.crew', '=', 0);
}

/** Whether tickets in this state count as registered (the rule of registeredTickets, on totals). */
export function isRegistered(group: TicketGroup): boolean {
  return isValidTicket(group.attendeeStatus, group.orderStatus) && !group.crew;
}

/** How many are registered, and how many of them have checked in at the main entrance. */
export async function countRegistered(
  ctx: Ctx,
  eventId: string,
  groups?: TicketGroup[],
): Promise<{ registered: number; checkedIn: number }> {
  let registered = 0;
  let checkedIn = 0;
  for (const g of groups ?? (await ticketTotals(ctx, eventId)))
    if (isRegistered(g)) {
      registered += g.n;
      if (g.checkedIn) checkedIn += g.n;
    }
  return { registered, checkedIn };
}
