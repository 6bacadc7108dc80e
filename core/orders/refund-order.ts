import { sql } from 'kysely';
import * as v from 'valibot';
import { cancelTickets } from '../attendees';
import { ticketsAmountMinor } from '../invoicing';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { refundCardPayment } from './card-refund';
import { documentRef, refundedOrderSchema } from './issued-documents';
import { orderQuery } from './order-query';
import { orderView } from './order-view';

export const refundOrder = defineOperation({
  name: 'refundOrder',
  title: 'Refund an order',
  description:
    'Refunds a paid order, whole or for the named tickets (a card payment through Stripe first): each is cancelled, places given back, the order refunded once no ticket is left, a credit note correcting its invoice. Needs orders:write.',
  scope: 'orders:write',
  effect: 'destructive',
  extension: true,
  module: 'payments',
  idempotent: true,
  // Sent again, it changes nothing more: the order is no longer awaiting payment (or the tickets are gone).
  repeatable: true,
  activity: {
    resourceType: 'order',
    resourceId: (input) => input.orderId,
    summary: (input) => (input.attendeeIds ? `${input.attendeeIds.length} ticket(s)` : 'whole order'),
  },
  problems: [
    'notFound',
    'orderNotPaid',
    'alreadyCancelled',
    'stripeNotConnected',
    'stripeUnavailable',
    'stripeKeyRefused',
  ],
  input: v.object({
    eventId: uuid('The event id.'),
    orderId: uuid('The order id.'),
    attendeeIds: v.optional(
      v.pipe(
        v.array(uuid('An attendee of the order.')),
        v.minLength(1),
        v.maxLength(500),
        v.description('The tickets to refund; omitted: every ticket still active.'),
      ),
    ),
  }),
  output: refundedOrderSchema,
  // A card order's money goes back through Stripe first, outside the transaction (card-refund.ts).
  before: refundCardPayment,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const order = await ctx.db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('id', '=', input.orderId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!order) throw problem('notFound', `No order ${input.orderId} at this event.`);
    if (order.status !== 'paid')
      throw problem('orderNotPaid', `The order is ${order.status}: only a paid order can be refunded.`, {
        orderStatus: order.status,
      });
    const tickets = await ctx.db
      .selectFrom('attendees')
      .select(['id', 'status'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    const status = new Map(tickets.map((t) => [t.id, t.status]));
    const chosen = input.attendeeIds ?? tickets.filter((t) => t.status === 'active').map((t) => t.id);
    const errors = new FieldErrors();
    chosen.forEach((id, i) => {
      if (!status.has(id)) errors.add(`attendeeIds.${i}`, 'Not a ticket of this order.');
      else if (chosen.indexOf(id) !== i) errors.add(`attendeeIds.${i}`, 'Named twice.');
    });
    errors.throwIfAny();
    const cancelled = chosen.filter((id) => status.get(id) !== 'active');
    if (cancelled.length > 0)
      throw problem('alreadyCancelled', `Already cancelled: ${cancelled.join(', ')}.`);
    const refundedMinor = await ticketsAmountMinor(ctx, chosen);
    const { creditNoteId } = await cancelTickets(ctx, event, order.id, chosen, 'refunded');
    // Kept on the order: a refund of some tickets leaves it paid, and the money figures count it.
    await ctx.db
      .updateTable('orders')
      .set({ refunded_minor: sql`refunded_minor + ${refundedMinor}` })
      .where('id', '=', order.id)
      .execute();
    const row = await orderQuery(ctx.db).where('orders.id', '=', order.id).executeTakeFirstOrThrow();
    const view = orderView(ctx.actor, row, Number(row.attendee_count ?? 0));
    const creditNote = await documentRef(ctx, creditNoteId);
    return creditNote ? { ...view, creditNote } : view;
  },
});
