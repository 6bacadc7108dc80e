import * as v from 'valibot';
import { documentFile } from '../platform/pipeline/document-file';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineDocumentOperation } from '../platform/pipeline/operation';
import { int32, personalDataSchema, text, uuid } from '../platform/schemas';
import { pdfFormats, pdfOfDocument } from './document-pdf-file';

export const invoicePdfSchema = v.object({
  invoiceId: uuid('The invoice or credit note id.'),
  number: text("Its number in the event's series."),
  kind: v.pipe(v.picklist(['invoice', 'creditNote']), v.description('invoice or creditNote.')),
  fileName: text('The name the PDF is saved under: its number, .pdf.'),
  mediaType: v.pipe(v.literal('application/pdf'), v.description('application/pdf.')),
  bytes: int32("The PDF's size in bytes."),
  personalData: personalDataSchema,
});

export const getInvoicePdf = defineDocumentOperation({
  name: 'getInvoicePdf',
  title: 'Download an invoice as PDF',
  description:
    'An invoice or credit note as the PDF a buyer forwards (seller, buyer, lines, VAT per rate, in a second currency too where set, totals), the same bytes each time; an assistant gets it as an embedded resource. Needs finance:read.',
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  module: 'payments',
  file: { formats: pdfFormats, document: true, fileName: '<invoice number>.pdf' },
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), invoiceId: uuid('The invoice or credit note id.') }),
  output: invoicePdfSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const pdf = await pdfOfDocument(ctx, ctx.actor, event.id, input.invoiceId);
    return documentFile({
      format: 'pdf',
      fileName: pdf.fileName,
      bytes: pdf.bytes,
      uri: `${ctx.request.origin}/api/v1/events/${event.id}/invoices/${pdf.invoiceId}/pdf`,
      about: {
        invoiceId: pdf.invoiceId,
        number: pdf.number,
        kind: pdf.kind,
        fileName: pdf.fileName,
        mediaType: 'application/pdf',
        bytes: pdf.bytes.length,
        personalData: pdf.personalData,
      },
    });
  },
});
