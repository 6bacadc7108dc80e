// An organiser sends an invoice or credit note by e-mail, as a PDF: to the order's buyer again, or
// to an address they give (the buyer's accounts department). Each send is a new e-mail of the
// event's log; a retry with the same Idempotency-Key answers the same one.
import * as v from 'valibot';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { emailAddress, uuid } from '../platform/schemas';
import { queueDocumentMail } from './document-mails';
import { emailSchema, emailView } from './email-view';
import { mailRefusal } from './mail-policy';

export const sendInvoice = defineOperation({
  name: 'sendInvoice',
  title: 'Send an invoice by e-mail',
  description:
    "E-mails an invoice or credit note as a PDF, with the buyer's download link, to the order's buyer or to the address given (their accounts department); refused for a buyer who erased their data. Needs orders:write.",
  scope: 'orders:write',
  effect: 'write',
  extension: true,
  module: 'payments',
  idempotent: true,
  openWorld: true,
  activity: {
    resourceType: 'invoice',
    resourceId: (input) => input.invoiceId,
    // The address is personal data: the log says only whose it was.
    summary: (input) => (input.to ? 'to an address given' : 'to the buyer'),
  },
  problems: ['notFound', 'emailNotSent'],
  input: v.object({
    eventId: uuid('The event id.'),
    invoiceId: uuid('The invoice or credit note id.'),
    to: v.optional(
      emailAddress("Where to send it instead of the buyer's address (their accounts department, say)."),
    ),
  }),
  output: emailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const document = await ctx.db
      .selectFrom('invoices')
      .innerJoin('orders', 'orders.id', 'invoices.order_id')
      .select(['invoices.id', 'invoices.erased', 'orders.erased as order_erased', 'orders.buyer_email'])
      .where('invoices.id', '=', input.invoiceId)
      .where('invoices.event_id', '=', event.id)
      .executeTakeFirst();
    if (!document) throw problem('notFound', `No invoice ${input.invoiceId} at this event.`);
    const refusal = await mailRefusal(ctx.db, ctx.services.mail, event);
    if (refusal) throw problem('emailNotSent', refusal);
    if (document.erased === 1 || document.order_erased === 1)
      throw problem('emailNotSent', 'The buyer erased their data: their documents are sent to nobody.');
    if (!input.to && !document.buyer_email)
      throw problem('emailNotSent', 'The order names no buyer address: give one in `to`.');
    const sendId = newId();
    await queueDocumentMail(ctx, event.id, document.id, { sendId, to: input.to ?? null });
    const row = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('cause_kind', '=', 'documentSent')
      .where('cause_id', '=', sendId)
      .executeTakeFirstOrThrow();
    return emailView(ctx, row);
  },
});
