// The e-mails that carry an invoice or credit note as a PDF to the order's buyer: the receipt of a
// paid order with its invoice (cause invoiceIssued), the credit note of a refund or cancellation
// (creditNoteIssued), both queued in the transaction that issued the document; and a document an
// organiser sends, or sends again, to the buyer or an address they give (documentSent, one per
// send). Each carries the buyer's own download link and the PDF, printed when the message is sent.
import { buyerDocumentUrl, documentFileName } from '../documents';
import type { Ctx } from '../platform/context';
import { toMajor } from '../platform/money';
import { problem } from '../platform/problems';
import { oneLineOf, oneLineOrNull } from '../platform/shown-text';
import type { MailBlock } from './mail-layout';
import { mailHtml, mailText } from './mail-layout';
import type { MailContent } from './queue-mail';
import { queueMail } from './queue-mail';
import { mailableEvent, sender } from './ticket-mails';

interface DocumentFacts {
  eventName: string;
  kind: 'invoice' | 'creditNote';
  number: string;
  orderReference: string;
  total: string;
  buyerName: string | null;
  link: string;
}

async function documentFacts(ctx: Ctx, eventId: string, invoiceId: string) {
  return ctx.db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .select([
      'invoices.id',
      'invoices.kind',
      'invoices.number',
      'invoices.total_minor',
      'invoices.currency',
      'invoices.erased',
      'orders.id as order_id',
      'orders.reference',
      'orders.buyer_name',
      'orders.buyer_email',
      'orders.erased as order_erased',
    ])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.event_id', '=', eventId)
    .executeTakeFirst();
}

function documentMail(facts: DocumentFacts, sentAgain: boolean): MailContent {
  const invoice = facts.kind === 'invoice';
  const what = invoice ? 'invoice' : 'credit note';
  const eventName = oneLineOf(facts.eventName);
  const subject = `${invoice ? 'Invoice' : 'Credit note'} ${facts.number}: ${eventName}`;
  const buyerName = oneLineOrNull(facts.buyerName);
  const blocks: MailBlock[] = [
    { kind: 'paragraph', text: buyerName ? `Hello ${buyerName},` : 'Hello,' },
    {
      kind: 'paragraph',
      text: sentAgain
        ? `Here is the ${what} ${facts.number} for your order for ${eventName}.`
        : invoice
          ? `Thank you: your payment for ${eventName} has been received. Your invoice ${facts.number} is attached as a PDF.`
          : `Your order for ${eventName} has been refunded, in whole or in part. The credit note ${facts.number} is attached as a PDF.`,
    },
    {
      kind: 'facts',
      rows: [
        [invoice ? 'Invoice' : 'Credit note', facts.number],
        ['Order reference', facts.orderReference],
        [invoice ? 'Total' : 'Total credited', facts.total],
        ['Event', eventName],
      ],
    },
    { kind: 'link', label: `Download the ${what} (PDF)`, url: facts.link },
    {
      kind: 'paragraph',
      text: 'Forward this e-mail or the PDF to whoever keeps your accounts. Keep the link to yourself: anyone who has it can download the document.',
    },
  ];
  return {
    subject,
    text: mailText(blocks),
    html: mailHtml(subject, blocks),
    attachments: [],
  };
}

/**
 * Queues the document's e-mail to the order's buyer (or `to`): as issued (causeId the document's
 * id, once) or, with `sendId`, sent again. Answers whether one was queued.
 */
export async function queueDocumentMail(
  ctx: Ctx,
  eventId: string,
  invoiceId: string,
  send?: { sendId: string; to: string | null },
): Promise<boolean> {
  const event = await mailableEvent(ctx, eventId);
  if (!event) {
    // Issued with a paid order: no e-mail when the event sends none. Sent on request: say why not.
    if (send) throw problem('emailNotSent', 'E-mail is off for this event or this service.');
    return false;
  }
  const row = await documentFacts(ctx, eventId, invoiceId);
  if (!row) return false;
  const erased = row.erased === 1 || row.order_erased === 1;
  const recipient = send?.to ?? (erased ? null : row.buyer_email);
  if (!recipient) return false;
  const content = documentMail(
    {
      eventName: event.name,
      kind: row.kind,
      number: row.number,
      orderReference: row.reference,
      total: new Intl.NumberFormat('en', { style: 'currency', currency: row.currency }).format(
        toMajor(row.total_minor, row.currency),
      ),
      buyerName: erased ? null : row.buyer_name,
      link: buyerDocumentUrl(
        ctx.services.secrets,
        ctx.services.mail?.publicOrigin ?? ctx.request.origin,
        row.id,
      ),
    },
    send !== undefined,
  );
  content.attachments.push({
    filename: documentFileName(row.number),
    contentType: 'application/pdf',
    document: { eventId, invoiceId: row.id },
  });
  return queueMail(ctx, sender(ctx), {
    event,
    causeKind: send ? 'documentSent' : row.kind === 'invoice' ? 'invoiceIssued' : 'creditNoteIssued',
    causeId: send?.sendId ?? row.id,
    attendeeId: null,
    orderId: row.order_id,
    recipient,
    content,
  });
}
