// What "registered" means, in one place: valid tickets (not cancelled, order paid or free), crew
// left out. The event statistics, the check-in summary and the sales pace all count it so.

import type { Ctx } from '../platform/context';
import { validOrderStatuses } from './order-status';

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

/** How many are registered, and how many of them have checked in at the main entrance. */
export async function countRegistered(
  ctx: Ctx,
  eventId: string,
): Promise<{ registered: number; checkedIn: number }> {
  const row = await registeredTickets(ctx, eventId)
    .select((eb) => [
      eb.fn.countAll<number>().as('registered'),
      eb.fn.count<number>('attendees.checked_in_utc').as('checked_in'),
    ])
    .executeTakeFirstOrThrow();
  return { registered: Number(row.registered), checkedIn: Number(row.checked_in) };
}
