// An order awaiting a bank transfer: the one path for the public registration form's paid
// tickets and for an integration taking orders the same way. The registration's own rules and
// places (registration-input.ts, registration-places.ts: never oversold), the totals from the
// ticket types' and chosen add-ons' prices with the VAT within them (included add-ons come with
// the ticket), the tickets written but not valid until paid: attendee.registered is sent when the
// order is marked paid (pay-order.ts), not now.
import * as v from 'valibot';
import {
  checkRegistration,
  newAttendeeSchema,
  optionalText,
  refuseFullAtRead,
  takeRegistrationPlaces,
  writeRegistration,
} from '../attendees';
import { queueTransferInstructions } from '../mail';
import { documentedAsRequired } from '../platform/docs/json-schema';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { orderQuery } from './order-query';
import { orderSchema, orderView } from './order-view';

/** VAT within a price that includes it, rounded to a minor unit (as invoices state it). */
const vatWithin = (priceMinor: number, rate: number) => Math.round((priceMinor * rate) / (100 + rate));

export const createOrder = defineOperation({
  name: 'createOrder',
  title: 'Take an order paid by bank transfer',
  description:
    'Takes an order of 1 to 50 tickets paid by bank transfer: places held, status transfer, total and VAT from the prices; its tickets become valid when marked paid. Free tickets: register_attendees. Needs orders:write.',
  scope: 'orders:write',
  effect: 'write',
  extension: true,
  module: 'payments',
  idempotent: true,
  activity: {
    resourceType: 'order',
    resourceId: (_input, order) => order.orderId,
    summary: (_input, order) => `${order.attendees} ticket(s) by transfer, ${order.reference}`,
  },
  problems: ['invalid', 'soldOut', 'unknownTicket', 'empty', 'tooMany', 'registrationRefused'],
  input: v.object({
    eventId: uuid('The event id.'),
    attendees: documentedAsRequired(
      v.optional(v.pipe(v.array(newAttendeeSchema), v.description('1 to 50 people, one per ticket.'))),
    ),
    language: optionalText("Default: the event's first."),
    buyerName: optionalText("Default: the first attendee's."),
    buyerEmail: optionalText("Default: the first attendee's."),
    buyerCompany: optionalText('Optional.'),
  }),
  output: orderSchema,
  async handler(ctx, input) {
    const registration = await checkRegistration(ctx, input);
    refuseFullAtRead(registration);
    let totalMinor = 0;
    let vatMinor = 0;
    for (const person of registration.people) {
      const type = registration.types.get(person.ticketTypeId!)!;
      totalMinor += type.price_minor;
      vatMinor += vatWithin(type.price_minor, type.vat_rate);
      for (const { addOnId, quantity } of person.addOns ?? []) {
        const addOn = registration.addOns.get(addOnId)!;
        const priceMinor = addOn.price_minor * (quantity ?? 1);
        totalMinor += priceMinor;
        vatMinor += vatWithin(priceMinor, addOn.vat_rate);
      }
    }
    const { orderId } = await writeRegistration(ctx, registration, input, {
      status: 'transfer',
      totalMinor,
      vatMinor,
    });
    // The buyer is told how to pay, for the API's orders and the form's alike, in this transaction.
    await queueTransferInstructions(ctx, registration.event.id, orderId);
    // Last: every order of the type queues on its row from here to its commit.
    await takeRegistrationPlaces(ctx, registration);
    const row = await orderQuery(ctx.db).where('orders.id', '=', orderId).executeTakeFirstOrThrow();
    return orderView(ctx.actor, row, Number(row.attendee_count ?? 0));
  },
});
