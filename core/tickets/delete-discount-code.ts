import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { discountCodeView } from './discount-code-view';
import { loadDiscountCode } from './load-discount-code';

export const deleteDiscountCode = defineOperation({
  name: 'deleteDiscountCode',
  title: 'Remove a discount code',
  description:
    'Removes a discount code never used, freeing its letters; a used one is refused (inUse, naming the orders): switch it off with update_discount_code active false. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: heldRow('discount_codes', (input) => input.discountCodeId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return discountCodeView(event, await loadDiscountCode(ctx, event.id, input.discountCodeId));
    },
  },
  activity: { resourceType: 'discountCode', resourceId: (_input, removed) => removed.discountCodeId },
  input: v.object({ eventId: uuid('The event id.'), discountCodeId: uuid('The discount code id.') }),
  output: v.object({ discountCodeId: uuid('The discount code removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const code = await loadDiscountCode(ctx, event.id, input.discountCodeId);
    const orders = await ctx.db
      .selectFrom('orders')
      .select('id')
      .where('discount_code_id', '=', code.id)
      .execute();
    // The orders that used it keep its name in the books: a used code is switched off, not removed.
    refuseWhileUsed(
      `The discount code ${code.code}`,
      [
        dependentsOf(
          'order',
          orders.map((o) => o.id),
        ),
        { resource: 'ticket', count: code.used },
      ],
      'switch it off with active false instead.',
    );
    await deleteEventRow(ctx, 'discount_codes', code.id, 'discount code');
    return { discountCodeId: code.id, deleted: true as const };
  },
});
