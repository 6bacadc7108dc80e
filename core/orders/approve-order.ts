// Approving an order that waited for the organiser (status requested): one costing nothing becomes
// free at once (its tickets valid: attendee.registered and each ticket's e-mail, as a free
// registration's), one with a price has its payment asked for the way the buyer chose
// (approved-payment.ts). order.approved is sent either way, in the same transaction.
import * as v from 'valibot';
import { activeTicketIds, attendeeRegistered, emitForAttendees } from '../attendees';
import { queueTicketConfirmations } from '../mail';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { askForPayment } from './approved-payment';
import { orderApproved } from './order-messages';
import { orderQuery } from './order-query';
import { orderSchema, orderView } from './order-view';
import { lockRequestedOrder, moveFromRequested } from './requested-order';

export const approveOrder = defineOperation({
  name: 'approveOrder',
  title: 'Approve an order',
  description:
    'Approves an order waiting for approval (requested): costing nothing it becomes free, its tickets valid and sent; else its payment is asked for (transfer, instructions e-mailed). order.approved is sent. Needs orders:write.',
  scope: 'orders:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  // Sent again, it changes nothing more: the order is no longer requested.
  repeatable: true,
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (_input, order) => `approved, now ${order.status}`,
  },
  problems: ['notFound', 'orderNotRequested'],
  input: v.object({
    eventId: uuid('The event id.'),
    orderId: uuid('The order id.'),
  }),
  output: orderSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const order = await lockRequestedOrder(ctx, event.id, input.orderId);
    if (order.total_minor > 0) await askForPayment(ctx, event, order);
    else await moveFromRequested(ctx, order.id, 'free');
    const approved = await orderQuery(ctx.db).where('orders.id', '=', order.id).executeTakeFirstOrThrow();
    await orderApproved.emit(ctx, { event, order: approved });
    if (approved.status === 'free') {
      const ids = await activeTicketIds(ctx, order.id);
      await emitForAttendees(ctx, attendeeRegistered, event, ids);
      await queueTicketConfirmations(ctx, event.id, ids);
    }
    return orderView(ctx.actor, approved, Number(approved.attendee_count ?? 0));
  },
});
