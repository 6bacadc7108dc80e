// The public Order resource, with the personal-data rule applied to buyer fields.
import * as v from 'valibot';
import type { OrderRow } from '../../db/schema';
import { orderSources } from '../../db/values';
import { toMajor } from '../platform/money';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, int32, personalDataSchema, text, uuid } from '../platform/schemas';
import { orderStatuses } from '../sales';

/** The buyer's details (and the payment's reference): withheld without people:read, erased with the person. */
export const orderPersonal = declarePersonal({
  resource: 'order',
  idField: 'orderId',
  table: 'orders',
  fields: { buyerName: 'buyer_name', buyerEmail: 'buyer_email', buyerCompany: 'buyer_company' },
  // A payment's reference (a transfer's message) may name the payer: kept, shown nowhere, erased.
  storedOnly: ['payment_reference'],
  emailColumn: 'buyer_email',
});

export const orderSchema = v.object({
  orderId: uuid('The order id.'),
  eventId: uuid('The event id.'),
  reference: text('Six-character reference the buyer sees.'),
  status: v.pipe(v.picklist(orderStatuses), v.description('Order status; requested: awaiting approval.')),
  buyerName: v.nullable(text("Buyer's name (personal data).")),
  buyerEmail: v.nullable(v.pipe(v.string(), v.email(), v.description("Buyer's email (personal data)."))),
  buyerCompany: v.nullable(text("Buyer's company (personal data).")),
  language: text('Language the order was made in.'),
  total: v.pipe(v.number(), v.description("Total, VAT included, with the currency's own decimals.")),
  vat: v.pipe(v.number(), v.description('VAT within the total.')),
  currency: text('ISO 4217 currency.'),
  paymentProvider: v.nullable(text('Who took the payment.')),
  paymentMethod: v.nullable(
    text(
      'Tessera extension: how it was paid (transfer, onAccount, card, cash or other), or complimentary for an order given free on purpose; null while a payment is awaited and for a free registration.',
    ),
  ),
  complimentaryReason: v.nullable(text("Tessera extension: a complimentary order's reason.")),
  declineReason: v.nullable(
    text(
      'Tessera extension: why the organiser declined the order, in their words to the buyer; null otherwise.',
    ),
  ),
  discountCodeId: v.nullable(uuid('Tessera extension: the discount code the order was taken with.')),
  discount: v.pipe(
    v.number(),
    v.description('Tessera extension: what the discount code took off, VAT included (0 without one).'),
  ),
  refunded: v.pipe(
    v.number(),
    v.description('Tessera extension: what was paid back, VAT included (0 without a refund).'),
  ),
  paidUtc: v.nullable(dateTime('When it was paid.')),
  source: v.pipe(v.picklist(orderSources), v.description('Where the order was made.')),
  attendees: int32('Tickets held.'),
  createdUtc: dateTime('When it was made.'),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type OrderView = v.InferOutput<typeof orderSchema>;

export function orderView(reader: Reader, row: OrderRow, attendeeCount: number): OrderView {
  return applyPersonalData(
    reader,
    {
      orderId: row.id,
      eventId: row.event_id,
      reference: row.reference,
      status: row.status,
      buyerName: row.buyer_name,
      buyerEmail: row.buyer_email,
      buyerCompany: row.buyer_company,
      language: row.language,
      total: toMajor(row.total_minor, row.currency),
      vat: toMajor(row.vat_minor, row.currency),
      currency: row.currency,
      paymentProvider: row.payment_provider,
      paymentMethod: row.payment_method,
      complimentaryReason: row.payment_method === 'complimentary' ? row.payment_note : null,
      declineReason: row.decline_reason,
      discountCodeId: row.discount_code_id,
      discount: toMajor(row.discount_minor, row.currency),
      refunded: toMajor(row.refunded_minor, row.currency),
      paidUtc: row.paid_utc,
      source: row.source,
      attendees: attendeeCount,
      createdUtc: row.created_utc,
      updatedUtc: row.updated_utc,
    },
    orderPersonal,
    row.erased === 1,
  );
}
