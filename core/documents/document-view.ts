// A stored invoice or credit note with what its print names beside it: the event, the order's
// reference and, for a credit note, the number of the invoice it credits.
import type { Db } from '../../db/connect';
import { type InvoiceView, invoiceView } from '../finance';
import type { Reader } from '../platform/pipeline/personal-data';

export interface DocumentView {
  invoice: InvoiceView;
  event: { name: string; time_zone: string; workspace_id: string };
  orderReference: string;
  correctsNumber: string | null;
  /** The order's buyer address now (null once erased): where the document is sent by default. */
  buyerEmail: string | null;
}

export async function loadDocumentView(
  db: Db,
  reader: Reader,
  eventId: string,
  invoiceId: string,
): Promise<DocumentView | null> {
  const row = await db
    .selectFrom('invoices')
    .innerJoin('events', 'events.id', 'invoices.event_id')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .selectAll('invoices')
    .select([
      'events.name as event_name',
      'events.time_zone',
      'orders.reference as order_reference',
      'orders.buyer_email as order_buyer_email',
      'orders.erased as order_erased',
    ])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) return null;
  const [lines, corrected] = await Promise.all([
    db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('invoice_id', '=', row.id)
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    row.corrects_id === null
      ? undefined
      : db.selectFrom('invoices').select('number').where('id', '=', row.corrects_id).executeTakeFirst(),
  ]);
  const { event_name, time_zone, order_reference, order_buyer_email, order_erased, ...invoice } = row;
  return {
    invoice: invoiceView(reader, invoice, lines),
    event: { name: event_name, time_zone, workspace_id: row.workspace_id },
    orderReference: order_reference,
    correctsNumber: corrected?.number ?? null,
    buyerEmail: order_erased === 1 || row.erased === 1 ? null : order_buyer_email,
  };
}
