// Writes one invoice or credit note with its lines, taking its place in the event's series in the
// same transaction. Documents are only ever inserted: nothing in the service updates one.
import type { EventRow, OrderRow } from '../../db/schema';
import type { InvoiceKind } from '../../db/values';
import type { Ctx } from '../platform/context';
import { newId } from '../platform/ids';
import { currencyDecimals, vatWithin } from '../platform/money';
import { madeNow } from '../platform/storage/change-stamp';
import { documentNumber, takeSeriesPlace } from './invoice-series';
import type { Seller } from './invoicing-view';

export interface DocumentLine {
  ticketTypeId: string;
  addOnId: string | null;
  name: string;
  quantity: number;
  unitPriceMinor: number;
  vatRate: number;
}

export interface DocumentSpec {
  event: EventRow;
  order: OrderRow;
  kind: InvoiceKind;
  correctsId: string | null;
  seller: Seller;
  /** A second VAT currency and units of it for one of the event's currency. */
  vat: { currency: string; rate: number } | null;
  lines: DocumentLine[];
}

/** The VAT stated in a second currency, in that currency's decimals. */
export function convertedVat(vatMinor: number, from: string, to: string, rate: number): number {
  const major = vatMinor / 10 ** currencyDecimals(from);
  return Math.round(major * rate * 10 ** currencyDecimals(to));
}

/** Inserts the document and its lines; answers its id. */
export async function writeDocument(ctx: Ctx, spec: DocumentSpec): Promise<string> {
  const { event, order } = spec;
  const lines = spec.lines.map((line, i) => {
    const total = line.unitPriceMinor * line.quantity;
    return { ...line, total, vat: vatWithin(total, line.vatRate), sort: i + 1 };
  });
  const total = lines.reduce((n, l) => n + l.total, 0);
  const vat = lines.reduce((n, l) => n + l.vat, 0);
  const place = await takeSeriesPlace(ctx, event.id);
  const id = newId();
  await ctx.db
    .insertInto('invoices')
    .values({
      id,
      workspace_id: event.workspace_id,
      event_id: event.id,
      order_id: order.id,
      kind: spec.kind,
      series_no: place,
      number: documentNumber(spec.seller.prefix, place),
      corrects_id: spec.correctsId,
      issued_utc: ctx.clock.now().toISOString(),
      total_minor: total,
      vat_minor: vat,
      currency: order.currency,
      vat_currency: spec.vat?.currency ?? null,
      vat_converted_minor: spec.vat
        ? convertedVat(vat, order.currency, spec.vat.currency, spec.vat.rate)
        : null,
      // The buyer as the order names them now; an erased order names nobody.
      buyer_name: order.buyer_email === null ? null : order.buyer_name,
      buyer_email: order.buyer_name === null ? null : order.buyer_email,
      buyer_company: order.buyer_company,
      buyer_address: null,
      buyer_vat_number: null,
      buyer_reference: null,
      erased: order.erased,
      seller: JSON.stringify(spec.seller),
      ...(await madeNow(ctx)),
    })
    .execute();
  if (lines.length > 0)
    await ctx.db
      .insertInto('invoice_lines')
      .values(
        lines.map((l) => ({
          id: newId(),
          invoice_id: id,
          ticket_type_id: l.ticketTypeId,
          add_on_id: l.addOnId,
          name: l.name,
          quantity: l.quantity,
          unit_price_minor: l.unitPriceMinor,
          vat_rate: l.vatRate,
          total_minor: l.total,
          vat_minor: l.vat,
          sort: l.sort,
        })),
      )
      .execute();
  return id;
}
