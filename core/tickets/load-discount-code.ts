import type { DiscountCodeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';

/** One discount code of the event; 404 notFound otherwise. */
export function loadDiscountCode(
  ctx: Ctx,
  eventId: string,
  discountCodeId: string,
): Promise<DiscountCodeRow> {
  return loadEventRow(ctx, 'discount_codes', eventId, discountCodeId, 'discount code');
}
