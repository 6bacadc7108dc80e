// Sample invoices: one for every ticket order that was paid at the summit, the meetup and the forum
// (NOK, JPY and KWD: two, zero and three decimals), read from the orders already made, numbered in
// issue order in each event's series; a credit note for each refunded summit order; one summit
// invoice stating its VAT in euros too. Each invoicing event's settings print as its invoices do, so a
// payment made now continues the series.
import type { Db } from '../connect';
import type { SampleContext } from './context';
import { SampleRandom } from './random';
import { changeStamp } from './stamps';

interface Seller {
  enabled: boolean;
  sellerName: string;
  sellerAddress: string | null;
  sellerVatNumber: string | null;
  sellerRegistration: string | null;
  prefix: string;
  footer: string | null;
}

const organiser = {
  enabled: true,
  sellerName: 'Nordic Events AS',
  sellerAddress: 'Storgata 1, 0155 Oslo, Norway',
  sellerVatNumber: 'NO 912 345 678 MVA',
  sellerRegistration: 'Foretaksregisteret 912 345 678',
};

const sellers: Record<string, Seller> = {
  summit: { ...organiser, prefix: 'NPS-', footer: 'Payment within 14 days to 1503.12.34567.' },
  meetup: { ...organiser, prefix: 'TFM-', footer: null },
  // Outside the VAT area: no VAT number to print.
  forum: { ...organiser, sellerVatNumber: null, prefix: 'GDF-', footer: 'VAT does not apply.' },
};

const addresses = [
  'Karl Johans gate 22, 0159 Oslo',
  'Drottninggatan 5, 111 51 Stockholm',
  'Strøget 12, 1160 København',
  null,
];

/** NOK to EUR, for the one invoice whose VAT is stated in euros too. */
const eurPerNok = 0.0856;

const vatWithin = (total: number, rate: number) => Math.round(total - total / (1 + rate / 100));

export async function insertSampleInvoices(db: Db, sample: SampleContext): Promise<void> {
  // One generator for every event's invoices, in the sellers' order: the draws depend on it.
  const random = new SampleRandom(1507);
  for (const [key, seller] of Object.entries(sellers)) {
    await insertInvoicing(db, sample, key, seller);
    await insertInvoices(db, sample, key, seller, random);
  }
}

/**
 * The event's invoicing settings, as its invoices print them: an order paid now is invoiced in the
 * same series (the summit also states VAT in euros, as one of its invoices does).
 */
async function insertInvoicing(db: Db, sample: SampleContext, key: string, seller: Seller): Promise<void> {
  const euros = key === 'summit';
  await db
    .insertInto('event_invoicing')
    .values({
      event_id: sample.id(`event/${key}`),
      workspace_id: sample.workspaceId,
      enabled: 1,
      seller_name: seller.sellerName,
      seller_address: seller.sellerAddress,
      seller_vat_number: seller.sellerVatNumber,
      seller_registration: seller.sellerRegistration,
      prefix: seller.prefix,
      footer: seller.footer,
      vat_currency: euros ? 'EUR' : null,
      vat_rate: euros ? eurPerNok : null,
      updated_utc: new Date(sample.day0.getTime() - 60 * 86_400_000).toISOString(),
    })
    .execute();
}

/** An invoice or a credit note of an order, and when it was issued. */
type InvoiceDocument = Awaited<ReturnType<typeof documentsOf>>[number];

/** The event's invoices and credit notes, numbered in issue order in its series. */
async function insertInvoices(
  db: Db,
  sample: SampleContext,
  key: string,
  seller: Seller,
  random: SampleRandom,
): Promise<void> {
  const documents = await documentsOf(db, sample, key);
  const invoiceOf = new Map<string, string>();
  let converted = false;
  for (const [i, doc] of documents.entries()) {
    const written = await insertInvoice(db, sample, { key, seller, random }, doc, {
      seriesNo: i + 1,
      correctsId: doc.kind === 'creditNote' ? invoiceOf.get(doc.order.id)! : null,
      // One summit invoice to a buyer abroad states its VAT in euros too.
      mayStateEuros: key === 'summit' && doc.kind === 'invoice' && !converted && i >= 2,
    });
    if (written.inEuros) converted = true;
    if (doc.kind === 'invoice') invoiceOf.set(doc.order.id, written.id);
  }
}

/**
 * The documents to issue: an invoice for every paid order of tickets, and at the summit a credit
 * note for each refunded one; in issue order, as invoices and credit notes share the series.
 */
async function documentsOf(db: Db, sample: SampleContext, key: string) {
  const latest = sample.day0.getTime() - 3_600_000;
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('event_id', '=', sample.id(`event/${key}`))
    .where('paid_utc', 'is not', null)
    // Orders of tickets: a pass bought on this event (db/sample/passes.ts) is billed with its pass.
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('attendees').select('id').whereRef('attendees.order_id', '=', 'orders.id')),
    )
    .orderBy('paid_utc')
    .orderBy('id')
    .execute();
  const documents = orders.flatMap((order) => {
    const invoice = { order, kind: 'invoice' as const, issued: order.paid_utc! };
    if (order.status !== 'refunded' || key !== 'summit') return [invoice];
    // Refunded the day after payment, and never after the sample's day.
    const refunded = Math.min(Date.parse(order.paid_utc!) + 86_400_000, latest);
    return [invoice, { order, kind: 'creditNote' as const, issued: new Date(refunded).toISOString() }];
  });
  documents.sort((a, b) => (a.issued < b.issued ? -1 : a.issued > b.issued ? 1 : 0));
  return documents;
}

/**
 * The document with its lines (negative on a credit note); `mayStateEuros`: its VAT is stated in
 * euros too, where it has any. Answers its id and whether it did.
 */
async function insertInvoice(
  db: Db,
  sample: SampleContext,
  { key, seller, random }: { key: string; seller: Seller; random: SampleRandom },
  doc: InvoiceDocument,
  {
    seriesNo,
    correctsId,
    mayStateEuros,
  }: { seriesNo: number; correctsId: string | null; mayStateEuros: boolean },
): Promise<{ id: string; inEuros: boolean }> {
  const { order } = doc;
  const id = sample.id(`invoice/${key}/${order.id}/${doc.kind}`);
  const sign = doc.kind === 'creditNote' ? -1 : 1;
  const lines = await linesOf(db, order.id);
  const total = lines.reduce((n, l) => n + l.total, 0) * sign;
  const vat = lines.reduce((n, l) => n + l.vat, 0) * sign;
  const inEuros = mayStateEuros && vat > 0;
  const company = order.buyer_company;
  const withVatNumber = company !== null && random.next() < 0.4;
  await db
    .insertInto('invoices')
    .values({
      id,
      workspace_id: sample.workspaceId,
      event_id: order.event_id,
      order_id: order.id,
      kind: doc.kind,
      series_no: seriesNo,
      number: `${seller.prefix}${String(seriesNo).padStart(4, '0')}`,
      corrects_id: correctsId,
      issued_utc: doc.issued,
      total_minor: total,
      vat_minor: vat,
      currency: order.currency,
      vat_currency: inEuros ? 'EUR' : null,
      vat_converted_minor: inEuros ? Math.round(vat * eurPerNok) : null,
      buyer_name: order.buyer_name,
      buyer_email: order.buyer_email,
      buyer_company: company,
      buyer_address: order.erased ? null : random.pick(addresses),
      buyer_vat_number: withVatNumber ? `SE55${random.int(10_000_000, 99_999_999)}01` : null,
      buyer_reference: company !== null && random.next() < 0.3 ? `PO-${random.int(1000, 9999)}` : null,
      // The buyer who erased their data at the summit shows nothing personal here either.
      erased: order.erased,
      seller: JSON.stringify(seller),
      ...(await changeStamp(db, doc.issued)),
    })
    .execute();
  await insertInvoiceLines(db, sample, id, lines, sign);
  return { id, inEuros };
}

type InvoiceLine = Awaited<ReturnType<typeof linesOf>>[number];

async function insertInvoiceLines(
  db: Db,
  sample: SampleContext,
  invoiceId: string,
  lines: InvoiceLine[],
  sign: 1 | -1,
): Promise<void> {
  for (const [n, line] of lines.entries()) {
    await db
      .insertInto('invoice_lines')
      .values({
        id: sample.id(`invoice-line/${invoiceId}/${n}`),
        invoice_id: invoiceId,
        ticket_type_id: line.ticketTypeId,
        add_on_id: line.addOnId,
        name: line.name,
        quantity: line.quantity * sign,
        unit_price_minor: line.unitPrice,
        vat_rate: line.vatRate,
        total_minor: line.total * sign,
        vat_minor: line.vat * sign,
        sort: n + 1,
      })
      .execute();
  }
}

/** An order's lines: one per ticket type, and each bundled add-on at price 0 (it is in the ticket's price). */
async function linesOf(db: Db, orderId: string) {
  const tickets = await db
    .selectFrom('attendees')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select([
      'attendees.id',
      'ticket_types.id as type_id',
      'name',
      'ticket_types.price_minor',
      'vat_rate',
      'sort_order',
    ])
    .where('attendees.order_id', '=', orderId)
    .orderBy('sort_order')
    .execute();
  const bundled = await db
    .selectFrom('attendee_add_ons')
    .innerJoin('attendees', 'attendees.id', 'attendee_add_ons.attendee_id')
    .innerJoin('add_ons', 'add_ons.id', 'attendee_add_ons.add_on_id')
    .select(['attendees.ticket_type_id', 'add_ons.id', 'add_ons.name', 'add_ons.vat_rate', 'quantity'])
    .where('attendees.order_id', '=', orderId)
    .execute();
  const lines: {
    ticketTypeId: string;
    addOnId: string | null;
    name: string;
    quantity: number;
    unitPrice: number;
    vatRate: number;
    total: number;
    vat: number;
  }[] = [];
  for (const t of tickets) {
    const line = lines.find((l) => l.ticketTypeId === t.type_id && l.addOnId === null);
    if (line) line.quantity += 1;
    else
      lines.push({
        ticketTypeId: t.type_id,
        addOnId: null,
        name: t.name,
        quantity: 1,
        unitPrice: t.price_minor,
        vatRate: t.vat_rate,
        total: 0,
        vat: 0,
      });
  }
  for (const a of bundled) {
    const line = lines.find((l) => l.addOnId === a.id);
    if (line) line.quantity += a.quantity;
    else
      lines.push({
        ticketTypeId: a.ticket_type_id,
        addOnId: a.id,
        name: `${a.name} (included)`,
        quantity: a.quantity,
        unitPrice: 0,
        vatRate: a.vat_rate,
        total: 0,
        vat: 0,
      });
  }
  for (const line of lines) {
    line.total = line.quantity * line.unitPrice;
    line.vat = vatWithin(line.total, line.vatRate);
  }
  return lines;
}
