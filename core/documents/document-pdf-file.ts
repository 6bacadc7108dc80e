// An invoice or credit note printed as the file a caller downloads: its PDF, named by its number.
import type { Ctx } from '../platform/context';
import type { Reader } from '../platform/pipeline/personal-data';
import { invoicePdf } from './invoice-pdf';
import { printedDocument } from './printed-document';

export const pdfFormats = { pdf: 'application/pdf' } as const;

/** INV-0001 -> INV-0001.pdf; a series prefix with slashes (NS/2027/) keeps its file name flat. */
export function documentFileName(number: string): string {
  return `${number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
}

export interface PdfOfDocument {
  invoiceId: string;
  number: string;
  kind: 'invoice' | 'creditNote';
  fileName: string;
  bytes: Buffer;
  personalData: 'included' | 'withheld' | 'erased';
}

/** The document's PDF as `reader` may see it; 404 notFound when the event has no such document. */
export async function pdfOfDocument(
  ctx: Pick<Ctx, 'db'>,
  reader: Reader,
  eventId: string,
  invoiceId: string,
): Promise<PdfOfDocument> {
  const printed = await printedDocument(ctx, reader, eventId, invoiceId);
  return {
    invoiceId,
    number: printed.invoice.number,
    kind: printed.invoice.kind,
    fileName: documentFileName(printed.invoice.number),
    bytes: await invoicePdf(printed),
    personalData: printed.invoice.personalData,
  };
}
