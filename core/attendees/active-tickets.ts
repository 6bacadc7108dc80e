// The tickets of an order still active, by id: what a payment validates, a cancellation or a hold's
// end gives back, a checkout bills. In the order of their ids, the order rows are locked in.
import type { Ctx } from '../platform/context';

export async function activeTicketIds(ctx: Pick<Ctx, 'db'>, orderId: string): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom('attendees')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
