// An order waiting for the organiser's approval (status requested), as approve and decline take it:
// its row locked first (docs/lock-order.md: the order before its tickets, its discount code and its
// places), refused 409 orderNotRequested in any other status, and moved on from requested only in a
// conditional update, so two decisions at once cannot both win: the second finds it decided.
import { lockingRow } from '../../db/dialect';
import type { OrderRow } from '../../db/schema';
import type { OrderStatus } from '../../db/values';
import { touchOrderAndAttendees } from '../attendees';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

const notRequested = (status: string) =>
  problem(
    'orderNotRequested',
    `The order is ${status}: only an order waiting for approval (requested) can be approved or declined.`,
    { orderStatus: status },
  );

export async function lockRequestedOrder(ctx: Ctx, eventId: string, orderId: string): Promise<OrderRow> {
  const order = await lockingRow(
    ctx.db,
    ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId).where('event_id', '=', eventId),
  ).executeTakeFirst();
  if (!order) throw problem('notFound', `No order ${orderId} at this event.`);
  if (order.status !== 'requested') throw notRequested(order.status);
  return order;
}

/** Moves the order from requested to `status`, its tickets moving on with it; refused when decided meanwhile. */
export async function moveFromRequested(ctx: Ctx, orderId: string, status: OrderStatus): Promise<void> {
  const moved = await ctx.db
    .updateTable('orders')
    .set({ status })
    .where('id', '=', orderId)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    const now = await ctx.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirst();
    throw notRequested(now?.status ?? 'gone');
  }
  await touchOrderAndAttendees(ctx, orderId);
}
