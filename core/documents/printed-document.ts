// What a printed document shows, gathered from the stored document (its view under the reader's
// personal-data rule), its event and order: the one input of the renderer (invoice-pdf.ts).
import type { InvoiceView } from '../finance';
import type { Ctx } from '../platform/context';
import type { Reader } from '../platform/pipeline/personal-data';
import { problem } from '../platform/problems';
import { loadDocumentView } from './document-view';

export interface PrintedDocument {
  invoice: InvoiceView;
  /** Invoice or Credit note. */
  title: string;
  totalLabel: string;
  eventName: string;
  /** The issue date in the event's time zone, YYYY-MM-DD. */
  issuedOn: string;
  orderReference: string;
  /** For a credit note, the number of the invoice it credits. */
  correctsNumber: string | null;
  seller: { name: string; lines: string[] };
  buyerHeading: string;
  buyerLines: string[];
  /** How the second currency's VAT was reached: "1 EUR = 11.5 NOK". */
  exchangeNote: string | null;
  footer: string | null;
}

const present = (values: (string | null | undefined)[]): string[] =>
  values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');

function sellerOf(invoice: InvoiceView, fallback: string): PrintedDocument['seller'] {
  const seller = invoice.seller;
  if (!seller) return { name: fallback, lines: [] };
  return {
    name: seller.sellerName,
    lines: present([
      seller.sellerAddress,
      seller.sellerVatNumber && `VAT number: ${seller.sellerVatNumber}`,
      seller.sellerRegistration && `Organisation number: ${seller.sellerRegistration}`,
    ]),
  };
}

function buyerLines(invoice: InvoiceView): string[] {
  if (invoice.personalData === 'erased') return ['(erased at their request)'];
  if (invoice.personalData === 'withheld') return ['(withheld: needs people:read)'];
  const buyer = invoice.buyer;
  if (!buyer) return ['(not named)'];
  return present([
    buyer.company,
    buyer.name,
    buyer.address,
    buyer.vatNumber && `VAT number: ${buyer.vatNumber}`,
    buyer.reference && `Your reference: ${buyer.reference}`,
    buyer.email,
  ]);
}

/** The units of the second currency for one of the document's, as its stored figures give them. */
function exchangeNote(invoice: InvoiceView): string | null {
  if (invoice.vatCurrency === null || invoice.vatConverted === null || invoice.vat === 0) return null;
  const rate = Number((invoice.vatConverted / invoice.vat).toPrecision(6));
  return `1 ${invoice.currency} = ${rate} ${invoice.vatCurrency}`;
}

/** The document as `reader` may see it printed; 404 notFound when the event has no such document. */
export async function printedDocument(
  ctx: Pick<Ctx, 'db'>,
  reader: Reader,
  eventId: string,
  invoiceId: string,
): Promise<PrintedDocument> {
  const found = await loadDocumentView(ctx.db, reader, eventId, invoiceId);
  if (!found) throw problem('notFound', `No invoice ${invoiceId} at this event.`);
  const { invoice, event, orderReference, correctsNumber } = found;
  const credit = invoice.kind === 'creditNote';
  const issuedOn = new Intl.DateTimeFormat('en-CA', {
    timeZone: event.time_zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(invoice.issuedUtc));
  return {
    invoice,
    title: credit ? 'Credit note' : 'Invoice',
    totalLabel: credit ? 'Total credited' : 'Total',
    eventName: event.name,
    issuedOn,
    orderReference,
    correctsNumber,
    seller: sellerOf(invoice, event.name),
    buyerHeading: credit ? 'Credited to' : 'Billed to',
    buyerLines: buyerLines(invoice),
    exchangeNote: exchangeNote(invoice),
    footer: invoice.seller?.footer ?? null,
  };
}
