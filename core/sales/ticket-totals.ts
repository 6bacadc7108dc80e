// The event's tickets by state, from the totals the database keeps as tickets change (migration
// 0033), so counting them costs the same at 100 tickets as at 400,000.

import type { AttendeeStatus } from '../../db/values';
import type { Ctx } from '../platform/context';
import type { OrderStatus } from './order-status';

export interface TicketGroup {
  attendeeStatus: AttendeeStatus;
  orderStatus: OrderStatus;
  crew: boolean;
  checkedIn: boolean;
  n: number;
}

/** How many of the event's tickets are in each state (slots summed). */
export async function ticketTotals(ctx: Ctx, eventId: string): Promise<TicketGroup[]> {
  const rows = await ctx.db
    .selectFrom('ticket_totals')
    .select((eb) => ['attendee_status', 'order_status', 'crew', 'checked_in', eb.fn.sum<number>('n').as('n')])
    .where('event_id', '=', eventId)
    .groupBy(['attendee_status', 'order_status', 'crew', 'checked_in'])
    .execute();
  return rows.map((r) => ({
    attendeeStatus: r.attendee_status,
    orderStatus: r.order_status,
    crew: Number(r.crew) === 1,
    checkedIn: Number(r.checked_in) === 1,
    n: Number(r.n),
  }));
}
