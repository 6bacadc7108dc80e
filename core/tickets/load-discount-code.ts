import { changingRow } from '../../db/dialect';
import type { DiscountCodeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/**
 * One discount code of the event; 404 notFound otherwise. `forChange` locks it on PostgreSQL
 * (db/dialect.ts changingRow) for a change checked against its other columns (validity, uses): another
 * change of it waits, so the check sees the row the update writes over.
 */
export async function loadDiscountCode(
  ctx: Ctx,
  eventId: string,
  discountCodeId: string,
  forChange = false,
): Promise<DiscountCodeRow> {
  const query = ctx.db
    .selectFrom('discount_codes')
    .selectAll()
    .where('id', '=', discountCodeId)
    .where('event_id', '=', eventId);
  const row = await (forChange ? changingRow(ctx.db, query) : query).executeTakeFirst();
  if (!row) throw problem('notFound', `No discount code ${discountCodeId} at this event.`);
  return row;
}
