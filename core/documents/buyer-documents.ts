// What a buyer reaches without a key: a document by its signed address (document-links.ts), and
// the links to their order's documents on their ticket's page. The buyer is the order's: the page
// of a ticket held by someone else (a colleague the buyer bought for) shows none.
import type { Db } from '../../db/connect';
import type { DeploymentSecrets } from '../platform/secrets';
import { documentToken, documentUrl, invoiceIdOfToken } from './document-links';
import { pdfOfDocument } from './document-pdf-file';

/** The document a buyer's link names, printed for them; null for a wrong token or an erased buyer. */
export async function buyerDocument(
  db: Db,
  secrets: DeploymentSecrets,
  token: string,
): Promise<{ fileName: string; bytes: Buffer } | null> {
  const invoiceId = invoiceIdOfToken(secrets, token);
  if (!invoiceId) return null;
  const row = await db
    .selectFrom('invoices')
    .select(['event_id', 'erased'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  // Erased, the person is gone: nobody holds their link any longer.
  if (!row || row.erased === 1) return null;
  const pdf = await pdfOfDocument({ db }, 'unredacted', row.event_id, invoiceId);
  return { fileName: pdf.fileName, bytes: pdf.bytes };
}

export interface DocumentLink {
  kind: 'invoice' | 'creditNote';
  number: string;
  url: string;
}

/** The buyer's link to a document. */
export function buyerDocumentUrl(secrets: DeploymentSecrets, origin: string, invoiceId: string): string {
  return documentUrl(origin, documentToken(secrets, invoiceId));
}

/** The documents of the ticket's order, when its holder is the order's buyer (by address). */
export async function ticketDocumentLinks(
  db: Db,
  secrets: DeploymentSecrets,
  origin: string,
  ticketCode: string,
): Promise<DocumentLink[]> {
  const ticket = await db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .select([
      'attendees.order_id',
      'attendees.email',
      'orders.buyer_email',
      'attendees.erased',
      'orders.erased as order_erased',
    ])
    .where('attendees.ticket_code', '=', ticketCode)
    .executeTakeFirst();
  if (!ticket || ticket.erased === 1 || ticket.order_erased === 1) return [];
  if (!ticket.email || !ticket.buyer_email || ticket.email.toLowerCase() !== ticket.buyer_email.toLowerCase())
    return [];
  const documents = await db
    .selectFrom('invoices')
    .select(['id', 'kind', 'number'])
    .where('order_id', '=', ticket.order_id)
    .where('erased', '=', 0)
    .orderBy('series_no')
    .execute();
  return documents.map((d) => ({
    kind: d.kind,
    number: d.number,
    url: buyerDocumentUrl(secrets, origin, d.id),
  }));
}
