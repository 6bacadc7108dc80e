import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { orderQuery } from './order-query';
import { orderSchema, orderView } from './order-view';

export const getOrder = defineOperation({
  name: 'getOrder',
  title: 'Get an order',
  description:
    'Returns one order: status, totals, payment, tickets and buyer (null without people:read). For the holders use list_attendees. Needs orders:read.',
  scope: 'orders:read',
  effect: 'read',
  problems: ['notFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), orderId: uuid('The order id.') }),
  output: orderSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await orderQuery(ctx.db)
      .where('orders.id', '=', input.orderId)
      .where('orders.event_id', '=', event.id)
      .executeTakeFirst();
    if (!row) throw problem('notFound', `No order ${input.orderId} at this event.`);
    return orderView(ctx.actor, row, Number(row.attendee_count ?? 0));
  },
});
