// An order the organiser takes (and the public form's paid orders): the registration's own rules and
// places (registration-input.ts, registration-places.ts: never oversold), the prices from the ticket
// types and chosen add-ons with a discount code taken off (registration-prices.ts; its uses within its
// limit, core/sales/discount-codes.ts), and the payment the caller names (order-payment.ts): awaiting
// a bank transfer (its tickets written but not valid until paid: attendee.registered is sent when the
// order is marked paid), by card (pending, its places held for the buyer's Stripe Checkout, whose
// link the answer gives once the session is made after the commit: card-checkout.ts), paid elsewhere already (marked paid in the same transaction, through the one
// path of mark-paid: order.paid, tickets, invoice), or complimentary. An order costing nothing is free:
// its tickets are valid at once, as a registration's. A ticket type requiring approval makes an order
// awaiting its payment (transfer) requested instead: its places held, no ticket valid, the buyer told
// their request was received, until the organiser approves it (approve-order.ts) or declines it. An
// order the organiser marks paid elsewhere or complimentary needs none: the organiser decided already.
import * as v from 'valibot';
import {
  attendeeRegistered,
  checkRegistration,
  emitForAttendees,
  freePrices,
  needsApproval,
  newAttendeeSchema,
  optionalText,
  refuseFullAtRead,
  registrationPrices,
  takeRegistrationPlacesLast,
  writeRegistration,
} from '../attendees';
import { requireStripeConnected } from '../events';
import { queueRequestReceived, queueTicketConfirmations, queueTransferInstructions } from '../mail';
import type { Ctx } from '../platform/context';
import { documentedAsRequired } from '../platform/docs/json-schema';
import { FieldErrors } from '../platform/field-errors';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { usableDiscountCode } from '../sales';
import { holdForCheckout, openCheckout } from './card-checkout';
import { paidOrderSchema } from './issued-documents';
import { type OrderPayment, orderPaymentSchema } from './order-payment';
import { orderQuery } from './order-query';
import { type OrderView, orderView } from './order-view';
import { payOrder } from './pay-order';

export const createOrder = defineOperation({
  name: 'createOrder',
  title: 'Take an order',
  description:
    'Takes an order of 1 to 50 tickets, a discount code off: by bank transfer (default), by card (a payment link to send, places held), paid elsewhere (valid at once) or complimentary; requested if a type needs approval. Needs orders:write.',
  scope: 'orders:write',
  effect: 'write',
  extension: true,
  module: 'payments',
  idempotent: true,
  activity: {
    resourceType: 'order',
    resourceId: (_input, order) => order.orderId,
    summary: (input, order) =>
      `${order.attendees} ticket(s), ${kindSaid(input.payment, order)}, ${order.reference}`,
  },
  problems: [
    'invalid',
    'soldOut',
    'unknownTicket',
    'empty',
    'tooMany',
    'registrationRefused',
    'stripeNotConnected',
    'stripeUnavailable',
    'stripeKeyRefused',
  ],
  input: v.object({
    eventId: uuid('The event id.'),
    attendees: documentedAsRequired(
      v.optional(v.pipe(v.array(newAttendeeSchema), v.description('1 to 50 people, one per ticket.'))),
    ),
    language: optionalText("Default: the event's first."),
    buyerName: optionalText("Default: the first attendee's."),
    buyerEmail: optionalText("Default: the first attendee's."),
    buyerCompany: optionalText('Optional.'),
    discountCode: optionalText(
      'Tessera extension: a discount code of the event (any case), taken off the tickets of the types it names, with the same rules as the public form; refused registrationRefused with reason discountCodeUnknown, discountCodeOff, discountCodeNotYetValid, discountCodeExpired, discountCodeNotApplicable or discountCodeUsedUp.',
    ),
    payment: v.optional(orderPaymentSchema),
  }),
  output: paidOrderSchema,
  async handler(ctx, input) {
    const payment: OrderPayment = input.payment ?? { kind: 'transfer' };
    if (payment.kind === 'complimentary' && input.discountCode !== undefined)
      new FieldErrors()
        .add('discountCode', 'A complimentary order costs nothing: send no discount code.')
        .throwIfAny();
    if (payment.kind === 'card') await requireStripeConnected(ctx, 'A card payment needs');
    const registration = await checkRegistration(ctx, input);
    refuseFullAtRead(registration);
    const code =
      input.discountCode === undefined
        ? undefined
        : await usableDiscountCode(ctx, registration.event.id, input.discountCode);
    const prices =
      payment.kind === 'complimentary' ? freePrices(registration) : registrationPrices(registration, code);
    const free = prices.totalMinor === 0;
    // The organiser's own decision (paid elsewhere, complimentary) needs no approval of theirs.
    const requested =
      payment.kind !== 'paidElsewhere' && payment.kind !== 'complimentary' && needsApproval(registration);
    const { orderId, joined } = await writeRegistration(ctx, registration, input, {
      status: requested ? 'requested' : free ? 'free' : payment.kind === 'card' ? 'pending' : 'transfer',
      prices,
      discountCodeId: code?.id ?? null,
      paymentMethod: payment.kind === 'complimentary' ? 'complimentary' : null,
      paymentNote: payment.kind === 'complimentary' ? payment.reason : null,
    });
    const ticketIds = joined.map((attendee) => attendee.id);
    // A card order keeps its checkout from the start; one waiting for approval holds it from then on.
    if (payment.kind === 'card' && !free) await holdForCheckout(ctx, orderId, payment.holdMinutes);
    if (requested) await queueRequestReceived(ctx, registration.event.id, orderId);
    else if (free) {
      await emitForAttendees(ctx, attendeeRegistered, registration.event, ticketIds);
      await queueTicketConfirmations(ctx, registration.event.id, ticketIds);
    } else if (payment.kind === 'transfer') {
      // The buyer is told how to pay, for the API's orders and the form's alike, in this transaction.
      await queueTransferInstructions(ctx, registration.event.id, orderId);
    }
    await takeRegistrationPlacesLast(ctx, registration, code && { row: code, uses: prices.codeUses });
    if (!free && payment.kind === 'paidElsewhere')
      return payOrder(ctx, registration.event, orderId, {
        method: payment.method,
        provider: payment.provider ?? 'organiser',
        reference: payment.reference?.trim() || null,
      });
    return answer(ctx, orderId);
  },
  // A card order's Checkout session is made after the commit (no write waits on Stripe); a retry of
  // the same request answers the same link (the session is made once and kept).
  async settle(ctx, order) {
    if (order.status !== 'pending') return order;
    const checkout = await openCheckout(ctx, order.orderId);
    return checkout ? { ...order, checkout } : order;
  },
});

async function answer(ctx: Ctx, orderId: string): Promise<OrderView> {
  const row = await orderQuery(ctx.db).where('orders.id', '=', orderId).executeTakeFirstOrThrow();
  return orderView(ctx.actor, row, Number(row.attendee_count ?? 0));
}

/** The activity log's words for how the order is paid. */
function kindSaid(payment: OrderPayment | undefined, order: OrderView): string {
  if (order.status === 'requested') return 'waiting for approval';
  if (payment?.kind === 'complimentary') return 'complimentary';
  if (order.status === 'free') return 'free';
  if (payment?.kind === 'paidElsewhere') return `paid by ${payment.method}`;
  if (payment?.kind === 'card') return 'by card';
  return 'by transfer';
}
