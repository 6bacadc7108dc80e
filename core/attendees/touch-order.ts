// An attendee's changedUtc is the last change of attendee or order: when an order changes,
// its attendees move on with it (new updatedUtc and change position), in the same transaction.
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';

export async function touchOrderAndAttendees(
  ctx: Ctx,
  orderId: string,
  orderChanges: Record<string, unknown> = {},
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable('orders')
    .set({ ...orderChanges, updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
    .where('id', '=', orderId)
    .execute();
  const attendees = await ctx.db
    .selectFrom('attendees')
    .select('id')
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  for (const { id } of attendees) {
    await ctx.db
      .updateTable('attendees')
      .set({ updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
      .where('id', '=', id)
      .execute();
  }
}
