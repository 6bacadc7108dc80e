// The public Invoice resource (an invoice or a credit note): amounts with the currency's own
// decimals, a credit note's negative (its lines' quantities too, unit prices as invoiced), the
// seller as printed, and the buyer as one object under the personal-data rule. Lines are shown on
// the single document only, never in lists.
import * as v from 'valibot';
import type { InvoiceLineRow, InvoiceRow } from '../../db/schema';
import { invoiceKinds } from '../../db/values';
import { sellerSchema } from '../invoicing';
import { toMajor } from '../platform/money';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, int32, personalDataSchema, text, uuid } from '../platform/schemas';

export { sellerSchema };

/**
 * The buyer's details: one field of the view made of six columns, withheld without people:read and
 * erased with the person. buyer_name stands for the object; the other columns are erased with it.
 */
export const invoicePersonal = declarePersonal({
  resource: 'invoice',
  idField: 'invoiceId',
  table: 'invoices',
  fields: { buyer: 'buyer_name' },
  storedOnly: ['buyer_email', 'buyer_company', 'buyer_address', 'buyer_vat_number', 'buyer_reference'],
  emailColumn: 'buyer_email',
});

const money = (description: string) =>
  v.pipe(v.number(), v.description(`${description} With the currency's own decimals.`));

export const buyerSchema = v.object({
  name: text('Who bought, as the document names them.'),
  email: v.pipe(v.string(), v.email(), v.description('Where the document was sent.')),
  company: v.nullable(text('Company.')),
  address: v.nullable(text('Postal address, as printed.')),
  vatNumber: v.nullable(text("The buyer's VAT number.")),
  reference: v.nullable(text("The buyer's own reference (a purchase order).")),
});

export const invoiceLineSchema = v.object({
  ticketTypeId: uuid('The ticket type the line is for.'),
  addOnId: v.nullable(uuid('The add-on, when the line is one (a bundled add-on is priced 0).')),
  name: text('As the line shows it.'),
  quantity: int32('How many; negative on a credit note (the places it takes back).'),
  unitPrice: money('Price of one, VAT included, as invoiced (positive on a credit note too).'),
  vatRate: v.pipe(v.number(), v.description('VAT rate in percent.')),
  total: money('quantity × unitPrice, VAT included; negative on a credit note.'),
  vat: money('VAT within the total.'),
});

const common = {
  invoiceId: uuid('The invoice or credit note id.'),
  eventId: uuid('The event id.'),
  orderId: uuid('The order it bills.'),
  kind: v.pipe(v.picklist(invoiceKinds), v.description('invoice or creditNote.')),
  number: text("Its number in the event's series (invoices and credit notes share one series)."),
  correctsId: v.nullable(uuid('For a credit note, the invoice it corrects; null on an invoice.')),
  issuedUtc: dateTime('When it was issued.'),
  total: money('Total, VAT included; negative on a credit note.'),
  vat: money('VAT within the total; negative on a credit note.'),
  currency: text('ISO 4217 currency.'),
  vatCurrency: v.nullable(text('The currency the VAT is also stated in, when the law asks; else null.')),
  vatConverted: v.nullable(money('The VAT in vatCurrency (in that currency).')),
  buyer: v.nullable(
    v.pipe(
      buyerSchema,
      v.description(
        'Who bought. Personal data: null without people:read and once erased (personalData says which); null too when the document names no buyer.',
      ),
    ),
  ),
  seller: v.nullable(v.pipe(sellerSchema, v.description('The organiser as printed on the document.'))),
  personalData: personalDataSchema,
};

export const invoiceItemSchema = v.object(common);

export const invoiceSchema = v.object({
  ...common,
  lines: v.pipe(v.array(invoiceLineSchema), v.description('What it bills, in printed order.')),
});

export type InvoiceItem = v.InferOutput<typeof invoiceItemSchema>;
export type InvoiceView = v.InferOutput<typeof invoiceSchema>;

function buyerOf(row: InvoiceRow) {
  if (row.buyer_name === null || row.buyer_email === null) return null;
  return {
    name: row.buyer_name,
    email: row.buyer_email,
    company: row.buyer_company,
    address: row.buyer_address,
    vatNumber: row.buyer_vat_number,
    reference: row.buyer_reference,
  };
}

/** A document as lists show it: no lines. */
export function invoiceItemView(reader: Reader, row: InvoiceRow): InvoiceItem {
  // The spec's Invoice says personalData only: the erased flag the rule adds is left out.
  const { erased: _erased, ...view } = applyPersonalData(
    reader,
    {
      invoiceId: row.id,
      eventId: row.event_id,
      orderId: row.order_id,
      kind: row.kind,
      number: row.number,
      correctsId: row.corrects_id,
      issuedUtc: row.issued_utc,
      total: toMajor(row.total_minor, row.currency),
      vat: toMajor(row.vat_minor, row.currency),
      currency: row.currency,
      vatCurrency: row.vat_currency,
      vatConverted:
        row.vat_currency === null || row.vat_converted_minor === null
          ? null
          : toMajor(row.vat_converted_minor, row.vat_currency),
      buyer: buyerOf(row),
      seller: row.seller === null ? null : (JSON.parse(row.seller) as v.InferOutput<typeof sellerSchema>),
    },
    invoicePersonal,
    row.erased === 1,
  );
  return view;
}

/** The single document: with its lines. */
export function invoiceView(reader: Reader, row: InvoiceRow, lines: InvoiceLineRow[]): InvoiceView {
  return {
    ...invoiceItemView(reader, row),
    lines: lines.map((line) => ({
      ticketTypeId: line.ticket_type_id,
      addOnId: line.add_on_id,
      name: line.name,
      quantity: line.quantity,
      unitPrice: toMajor(line.unit_price_minor, row.currency),
      vatRate: line.vat_rate,
      total: toMajor(line.total_minor, row.currency),
      vat: toMajor(line.vat_minor, row.currency),
    })),
  };
}
