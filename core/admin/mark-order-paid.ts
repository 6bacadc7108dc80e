// Confirms payment of an order (a bank transfer or an invoice paid on account): the order becomes
// paid, order.paid is sent, and attendee.registered for each ticket, which now lets its holder in.

import * as v from 'valibot';
import { attendeeRegistered, emitForAttendees } from '../attendees/attendee-messages';
import { touchOrderAndAttendees } from '../attendees/touch-order';
import { orderPaid } from '../orders/order-messages';
import { orderQuery } from '../orders/order-query';
import { orderSchema, orderView } from '../orders/order-view';
import type { Ctx } from '../platform/context';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { text, uuid } from '../platform/schemas';
import { awaitingPaymentStatuses } from '../sales/order-status';
import { invokeAsOperator } from './operator';

export const markOrderPaidOperation = defineOperation({
  name: 'markOrderPaid',
  title: 'Mark an order paid',
  description:
    'Confirms payment of a pending, on-account, transfer or requested order (tessera order mark-paid): the order becomes paid, order.paid is sent, and attendee.registered for each of its tickets. Answers the order.',
  operator: true,
  scope: 'any',
  effect: 'write',
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (input) => input.provider,
  },
  problems: ['notFound', 'invalidRequest'],
  input: v.object({
    orderId: uuid('The order to mark paid.'),
    provider: v.optional(text('Who took the payment.'), 'manual'),
  }),
  output: orderSchema,
  async handler(ctx, { orderId, provider }) {
    const order = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .executeTakeFirst();
    if (!order) throw problem('notFound', `No order ${orderId} in this workspace.`);
    if (!(awaitingPaymentStatuses as readonly string[]).includes(order.status))
      throw problem('invalidRequest', `An order in status ${order.status} cannot be marked paid.`);
    const now = ctx.clock.now().toISOString();
    await touchOrderAndAttendees(ctx, order.id, {
      status: 'paid',
      paid_utc: now,
      payment_provider: provider,
    });
    const event = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', order.event_id)
      .executeTakeFirstOrThrow();
    const paid = await orderQuery(ctx.db).where('orders.id', '=', order.id).executeTakeFirstOrThrow();
    const view = orderView('unredacted', paid, Number(paid.attendee_count ?? 0));
    await orderPaid.emit(ctx, { event, order: paid });
    const active = await ctx.db
      .selectFrom('attendees')
      .select('id')
      .where('order_id', '=', order.id)
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
    await emitForAttendees(
      ctx,
      attendeeRegistered,
      event,
      active.map((a) => a.id),
    );
    return view;
  },
});

/** Marks an order paid as the operator, through invoke. */
export function markOrderPaid(operator: Ctx, orderId: string, provider = 'manual') {
  return invokeAsOperator(markOrderPaidOperation, operator, { orderId, provider });
}
