import type { DiscountCodeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/** One discount code of the event; 404 notFound otherwise. */
export async function loadDiscountCode(
  ctx: Ctx,
  eventId: string,
  discountCodeId: string,
): Promise<DiscountCodeRow> {
  const row = await ctx.db
    .selectFrom('discount_codes')
    .selectAll()
    .where('id', '=', discountCodeId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No discount code ${discountCodeId} at this event.`);
  return row;
}
