// Declining an order that waited for the organiser (status requested): its tickets are cancelled
// through the one path that cancels tickets (core/attendees/cancel-tickets.ts: places and the
// discount code's uses given back, in the lock order), the order becomes declined with the
// organiser's reason kept, order.declined is sent and the buyer gets a kind e-mail saying so.
import * as v from 'valibot';
import { cancelOrderTickets } from '../attendees';
import { queueRequestDeclined } from '../mail';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { multiLine, uuid } from '../platform/schemas';
import { orderDeclined } from './order-messages';
import { orderQuery } from './order-query';
import { orderSchema, orderView } from './order-view';
import { lockRequestedOrder } from './requested-order';

export const declineOrder = defineOperation({
  name: 'declineOrder',
  title: 'Decline an order',
  description:
    'Declines an order waiting for approval (requested): its tickets are cancelled and places released, it becomes declined, order.declined is sent and the buyer is told kindly, with the reason if given. Needs orders:write.',
  scope: 'orders:write',
  effect: 'destructive',
  extension: true,
  idempotent: true,
  // Sent again, it changes nothing more: the order is no longer requested.
  repeatable: true,
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (input) => (input.reason ? `declined: ${input.reason}` : 'declined'),
  },
  problems: ['notFound', 'orderNotRequested'],
  input: v.object({
    eventId: uuid('The event id.'),
    orderId: uuid('The order id.'),
    reason: v.optional(
      v.pipe(
        v.string(),
        multiLine,
        v.trim(),
        v.maxLength(1000),
        v.description(
          "Why, in the organiser's words to the buyer: shown in the e-mail that tells them and kept on the order (declineReason). At most 1,000 characters.",
        ),
      ),
    ),
  }),
  output: orderSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const order = await lockRequestedOrder(ctx, event.id, input.orderId);
    await ctx.db
      .updateTable('orders')
      .set({ decline_reason: input.reason || null })
      .where('id', '=', order.id)
      .execute();
    await cancelOrderTickets(ctx, event, order.id, 'declined');
    const declined = await orderQuery(ctx.db).where('orders.id', '=', order.id).executeTakeFirstOrThrow();
    await orderDeclined.emit(ctx, { event, order: declined });
    await queueRequestDeclined(ctx, event.id, order.id);
    return orderView(ctx.actor, declined, Number(declined.attendee_count ?? 0));
  },
});
