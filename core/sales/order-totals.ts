// The event's orders by status with their amounts, from the totals the database keeps as orders
// change (migration 0033), so the statistics do not read every order.

import type { Ctx } from '../platform/context';
import { type OrderStatus, orderStatuses } from './order-status';

export interface OrderTotals {
  total: number;
  byStatus: Record<OrderStatus, number>;
  /** Minor units, VAT included, per status. */
  amountMinor: Record<OrderStatus, number>;
}

export async function orderTotals(ctx: Ctx, eventId: string): Promise<OrderTotals> {
  const rows = await ctx.db
    .selectFrom('order_totals')
    .select((eb) => ['status', eb.fn.sum<number>('n').as('n'), eb.fn.sum<number>('total_minor').as('total')])
    .where('event_id', '=', eventId)
    .groupBy('status')
    .execute();
  const none = () => Object.fromEntries(orderStatuses.map((s) => [s, 0])) as Record<OrderStatus, number>;
  const totals: OrderTotals = { total: 0, byStatus: none(), amountMinor: none() };
  for (const r of rows) {
    totals.byStatus[r.status] = Number(r.n);
    totals.amountMinor[r.status] = Number(r.total);
    totals.total += Number(r.n);
  }
  return totals;
}
