// Confirms payment of an order at the command line (a bank transfer or an invoice paid on account),
// through the same core as the API's mark-paid (core/orders/pay-order.ts): the order becomes paid,
// order.paid is sent, attendee.registered for each ticket, and the invoice where the event invoices.

import * as v from 'valibot';
import { type PaymentMethod, paidOrderSchema, paymentMethods, payOrder } from '../orders';
import type { Ctx } from '../platform/context';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { oneLineText, uuid } from '../platform/schemas';
import { invokeAsOperator } from './operator';

export const markOrderPaidOperation = defineOperation({
  name: 'markOrderPaid',
  title: 'Mark an order paid',
  description:
    "Confirms payment of a pending, on-account or transfer order (tessera order mark-paid; a requested order is approved first): the order becomes paid, order.paid is sent, attendee.registered for each of its tickets, its invoice is issued where the event invoices, and each ticket's e-mail is queued as the API queues it (refused with emailNotSent, changing nothing, when the command lacks the service's e-mail settings or public URL). Answers the order.",
  operator: true,
  scope: 'any',
  effect: 'write',
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (input) => input.provider,
  },
  problems: ['notFound', 'invalidRequest', 'orderNotAwaitingPayment', 'emailNotSent'],
  input: v.object({
    orderId: uuid('The order to mark paid.'),
    provider: v.optional(oneLineText('Who took the payment.'), 'manual'),
    method: v.optional(v.picklist(paymentMethods)),
    reference: v.optional(oneLineText("The payment's reference.")),
  }),
  output: paidOrderSchema,
  async handler(ctx, { orderId, provider, method, reference }) {
    const order = await ctx.db
      .selectFrom('orders')
      .select('event_id')
      .where('id', '=', orderId)
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .executeTakeFirst();
    if (!order) throw problem('notFound', `No order ${orderId} in this workspace.`);
    const event = await loadEvent(ctx, order.event_id);
    return payOrder(ctx, event, orderId, { provider, method, reference: reference ?? null });
  },
});

/** Marks an order paid as the operator, through invoke. */
export function markOrderPaid(
  operator: Ctx,
  orderId: string,
  provider = 'manual',
  payment: { method?: PaymentMethod; reference?: string } = {},
) {
  return invokeAsOperator(markOrderPaidOperation, operator, { orderId, provider, ...payment });
}
