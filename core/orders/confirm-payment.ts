import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { paidOrderSchema } from './issued-documents';
import { paymentProvider, paymentReference } from './order-payment';
import { paymentMethods, payOrder } from './pay-order';

export const confirmPayment = defineOperation({
  name: 'confirmPayment',
  title: 'Mark an order paid',
  description:
    'Confirms payment of an order awaiting it (pending, onAccount, transfer; not requested): it becomes paid, order.paid and attendee.registered are sent, and an invoice is issued and e-mailed where the event invoices. Needs orders:write.',
  scope: 'orders:write',
  effect: 'write',
  extension: true,
  module: 'payments',
  idempotent: true,
  // Sent again, it changes nothing more: the order is no longer awaiting payment (or the tickets are gone).
  repeatable: true,
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (input) => `${input.method} via ${input.provider}`,
  },
  problems: ['notFound', 'orderNotAwaitingPayment'],
  input: v.object({
    eventId: uuid('The event id.'),
    orderId: uuid('The order id.'),
    method: v.pipe(
      v.picklist(paymentMethods),
      v.description(
        'How it was paid: transfer, onAccount (an invoice paid on account), card, cash or other.',
      ),
    ),
    provider: paymentProvider('Who took the payment: the bank or payment service.'),
    reference: paymentReference(
      "The payment's reference, such as a transfer's message. Personal data: stored with the order, erased with the buyer, shown nowhere.",
    ),
  }),
  output: paidOrderSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return payOrder(ctx, event, input.orderId, {
      method: input.method,
      provider: input.provider,
      reference: input.reference?.trim() || null,
    });
  },
});
