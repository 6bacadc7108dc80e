// Invoices and credit notes the service issues itself, in the transaction of the change that
// calls for them: an invoice when an order becomes paid (invoicing on, total above 0), a credit
// note when tickets of an invoiced order are cancelled or refunded. Never changed once written.
import type { EventRow, OrderRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { currencyDecimals } from '../platform/money';
import { type InvoicingView, loadInvoicing, type Seller, sellerOf } from './invoicing-view';
import { ticketLines } from './ticket-lines';
import { writeDocument } from './write-document';

function vatOf(settings: InvoicingView) {
  return settings.vatCurrency !== null && settings.vatExchangeRate !== null
    ? { currency: settings.vatCurrency, rate: settings.vatExchangeRate }
    : null;
}

/** The invoice of an order just paid, when the event invoices; null when it does not. */
export async function invoicePaidOrder(ctx: Ctx, event: EventRow, order: OrderRow): Promise<string | null> {
  const settings = await loadInvoicing(ctx, event);
  if (!settings.enabled || order.total_minor <= 0) return null;
  const tickets = await ctx.db
    .selectFrom('attendees')
    .select('id')
    .where('order_id', '=', order.id)
    .where('status', '=', 'active')
    .execute();
  return writeDocument(ctx, {
    event,
    order,
    kind: 'invoice',
    correctsId: null,
    seller: sellerOf(settings),
    vat: vatOf(settings),
    lines: await ticketLines(
      ctx,
      tickets.map((t) => t.id),
    ),
  });
}

/**
 * A credit note correcting the order's latest invoice for the given tickets, taking them back at
 * the prices invoiced; null when the order has no invoice.
 */
export async function creditCancelledTickets(
  ctx: Ctx,
  event: EventRow,
  order: OrderRow,
  attendeeIds: string[],
): Promise<string | null> {
  const invoice = await ctx.db
    .selectFrom('invoices')
    .selectAll()
    .where('order_id', '=', order.id)
    .where('kind', '=', 'invoice')
    .orderBy('series_no', 'desc')
    .executeTakeFirst();
  if (!invoice || attendeeIds.length === 0) return null;
  const invoiced = await ctx.db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('invoice_id', '=', invoice.id)
    .execute();
  const priceAsInvoiced = (typeId: string, addOnId: string | null, now: number) =>
    invoiced.find((l) => l.ticket_type_id === typeId && l.add_on_id === addOnId)?.unit_price_minor ?? now;
  const lines = (await ticketLines(ctx, attendeeIds)).map((line) => ({
    ...line,
    quantity: -line.quantity,
    unitPriceMinor: priceAsInvoiced(line.ticketTypeId, line.addOnId, line.unitPriceMinor),
  }));
  const settings = await loadInvoicing(ctx, event);
  // The seller as printed now; a series that was only imported keeps its invoice's seller.
  const seller: Seller =
    settings.updatedUtc === null && invoice.seller !== null
      ? (JSON.parse(invoice.seller) as Seller)
      : sellerOf(settings);
  return writeDocument(ctx, {
    event,
    order,
    kind: 'creditNote',
    correctsId: invoice.id,
    seller,
    vat:
      invoice.vat_currency !== null
        ? {
            currency: invoice.vat_currency,
            rate: vatRateOf(
              invoice.vat_minor,
              invoice.vat_converted_minor,
              order.currency,
              invoice.vat_currency,
              settings,
            ),
          }
        : null,
    lines,
  });
}

/** The rate the invoice used, so its credit note converts the same way. */
function vatRateOf(
  vatMinor: number,
  convertedMinor: number | null,
  currency: string,
  vatCurrency: string,
  settings: InvoicingView,
): number {
  if (settings.vatCurrency === vatCurrency && settings.vatExchangeRate !== null)
    return settings.vatExchangeRate;
  if (convertedMinor === null || vatMinor === 0) return 1;
  return convertedMinor / 10 ** currencyDecimals(vatCurrency) / (vatMinor / 10 ** currencyDecimals(currency));
}
