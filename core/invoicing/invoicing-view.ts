// An event's invoicing settings: exactly the seller object invoices print (enabled, sellerName,
// sellerAddress, sellerVatNumber, sellerRegistration, prefix, footer), plus the second currency the
// VAT is stated in and its exchange rate, when the event's law asks for one.
import * as v from 'valibot';
import type { EventInvoicingRow, EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { dateTime, text, uuid } from '../platform/schemas';
import { sellerSchema } from './seller';

export const invoicingSchema = v.object({
  eventId: uuid('The event id.'),
  ...sellerSchema.entries,
  vatCurrency: v.nullable(text('A second ISO 4217 currency the VAT is also stated in; null: none.')),
  vatExchangeRate: v.nullable(
    v.pipe(v.number(), v.description('Units of vatCurrency for one unit of the event currency; null: none.')),
  ),
  updatedUtc: v.nullable(dateTime('Last change; null while never set.')),
});

export type InvoicingView = v.InferOutput<typeof invoicingSchema>;
export type Seller = v.InferOutput<typeof sellerSchema>;

/** The settings as stored, or what an event starts with: invoicing off, the workspace as seller. */
export async function loadInvoicing(ctx: Ctx, event: EventRow): Promise<InvoicingView> {
  const row = await ctx.db
    .selectFrom('event_invoicing')
    .selectAll()
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (row) return invoicingView(row);
  return {
    eventId: event.id,
    enabled: false,
    sellerName: ctx.actor.workspaceName,
    sellerAddress: null,
    sellerVatNumber: null,
    sellerRegistration: null,
    prefix: 'INV-',
    footer: null,
    vatCurrency: null,
    vatExchangeRate: null,
    updatedUtc: null,
  };
}

export function invoicingView(row: EventInvoicingRow): InvoicingView {
  return {
    eventId: row.event_id,
    enabled: row.enabled === 1,
    sellerName: row.seller_name,
    sellerAddress: row.seller_address,
    sellerVatNumber: row.seller_vat_number,
    sellerRegistration: row.seller_registration,
    prefix: row.prefix,
    footer: row.footer,
    vatCurrency: row.vat_currency,
    vatExchangeRate: row.vat_rate,
    updatedUtc: row.updated_utc,
  };
}

/** The seller as a document prints it. */
export function sellerOf(settings: InvoicingView): Seller {
  return {
    enabled: settings.enabled,
    sellerName: settings.sellerName,
    sellerAddress: settings.sellerAddress,
    sellerVatNumber: settings.sellerVatNumber,
    sellerRegistration: settings.sellerRegistration,
    prefix: settings.prefix,
    footer: settings.footer,
  };
}
