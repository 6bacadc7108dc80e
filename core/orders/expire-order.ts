// A card order whose hold ended unpaid (its Checkout session expired, or could not be made): the
// order becomes `expired` and gives back what its tickets held (places, the discount code's uses),
// in one transaction. Its tickets were never valid and never announced (attendee.registered waits
// for payment), so nothing is sent: they stay on the expired order, invalid, as the spec's status says.
// Lock order (docs/lock-order.md): the order's row, its tickets, the code, the places.
import { lockingRow } from '../../db/dialect';
import { activeTicketIds, releaseWhatTicketsHold, touchOrderAndAttendees } from '../attendees';
import type { Ctx } from '../platform/context';

/** Expires a pending order; false when it is no longer pending (paid or expired meanwhile). */
export async function expireHeldOrder(ctx: Ctx, orderId: string): Promise<boolean> {
  const order = await lockingRow(
    ctx.db,
    ctx.db.selectFrom('orders').select(['id', 'status', 'discount_code_id']).where('id', '=', orderId),
  ).executeTakeFirst();
  if (order?.status !== 'pending') return false;
  await touchOrderAndAttendees(ctx, orderId, { status: 'expired' });
  await releaseWhatTicketsHold(ctx, order.discount_code_id, await activeTicketIds(ctx, orderId));
  return true;
}
