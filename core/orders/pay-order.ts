// The one path that makes an order paid, for the API's mark-paid and the operator's
// `tessera order mark-paid` alike: the order moves from awaiting payment (never from requested: an
// order waiting for approval is approved first) to paid in a conditional
// update (two confirmations at once cannot both win), order.paid is sent, attendee.registered for
// each of its tickets, and the invoice is issued where the event invoices, all in one transaction.
import type { EventRow } from '../../db/schema';
import { activeTicketIds, attendeeRegistered, emitForAttendees, touchOrderAndAttendees } from '../attendees';
import { invoicePaidOrder } from '../invoicing';
import { queueDocumentMail, queueTicketConfirmations } from '../mail';
import type { Ctx } from '../platform/context';
import { detail, mention } from '../platform/mentions';
import { problem } from '../platform/problems';
import { payableStatuses } from '../sales';
import { approveOrder } from './approve-order';
import { type DocumentRef, documentRef } from './issued-documents';
import { orderPaid } from './order-messages';
import { orderQuery } from './order-query';
import { type OrderView, orderView } from './order-view';

/** How a payment was made: what the organiser confirms by hand. */
export const paymentMethods = ['transfer', 'onAccount', 'card', 'cash', 'other'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

export interface Payment {
  /** Omitted: what the order was awaiting (transfer, onAccount), else other. */
  method?: PaymentMethod;
  /** Who took the payment (a bank, a payment service). */
  provider: string;
  /** The payment's own reference; personal data. */
  reference: string | null;
}

/** Marks the order paid; answers it as the caller may read it, with the invoice issued if one was. */
export async function payOrder(
  ctx: Ctx,
  event: EventRow,
  orderId: string,
  payment: Payment,
): Promise<OrderView & { invoice?: DocumentRef }> {
  const now = ctx.clock.now().toISOString();
  const order = await ctx.db
    .selectFrom('orders')
    .select('status')
    .where('id', '=', orderId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!order) throw problem('notFound', `No order ${orderId} at this event.`);
  const moved = await ctx.db
    .updateTable('orders')
    .set({
      status: 'paid',
      paid_utc: now,
      payment_provider: payment.provider,
      payment_method: payment.method ?? methodAwaited(order.status),
      payment_reference: payment.reference,
    })
    .where('id', '=', orderId)
    .where('event_id', '=', event.id)
    .where('status', 'in', [...payableStatuses])
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    // Read again: a confirmation that won the race has moved it on since.
    const now = await ctx.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    throw problem(
      'orderNotAwaitingPayment',
      now.status === 'requested'
        ? detail`The order is waiting for approval: approve it first (${mention(approveOrder)}), then its payment is awaited.`
        : `The order is ${now.status}: only a pending, on-account or transfer order can be marked paid.`,
      { orderStatus: now.status },
    );
  }
  await touchOrderAndAttendees(ctx, orderId);
  const paid = await orderQuery(ctx.db).where('orders.id', '=', orderId).executeTakeFirstOrThrow();
  await orderPaid.emit(ctx, { event, order: paid });
  const active = await activeTicketIds(ctx, orderId);
  await emitForAttendees(ctx, attendeeRegistered, event, active);
  await queueTicketConfirmations(ctx, event.id, active);
  const invoiceId = await invoicePaidOrder(ctx, event, paid);
  // The buyer's receipt with the invoice attached (the tickets' confirmations go to their holders).
  if (invoiceId) await queueDocumentMail(ctx, event.id, invoiceId);
  const invoice = await documentRef(ctx, invoiceId);
  const view = orderView(ctx.actor, paid, Number(paid.attendee_count ?? 0));
  return invoice ? { ...view, invoice } : view;
}

function methodAwaited(status: string): PaymentMethod {
  return status === 'transfer' || status === 'onAccount' ? status : 'other';
}
