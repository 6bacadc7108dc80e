// The files of a queued message as sent: a text as it was queued, a document printed now (for its
// buyer: unredacted), the same bytes it had when the message was queued.
import type { Db } from '../../db/connect';
import { pdfOfDocument } from '../documents';
import type { OutgoingMessage } from './mail-transport';
import type { MailAttachment } from './queue-mail';

export async function attachmentsToSend(
  db: Db,
  stored: string | null,
): Promise<OutgoingMessage['attachments']> {
  const list = JSON.parse(stored ?? '[]') as MailAttachment[];
  return Promise.all(
    list.map(async (a) => {
      if ('content' in a) return a;
      const pdf = await pdfOfDocument({ db }, 'unredacted', a.document.eventId, a.document.invoiceId);
      return { filename: a.filename, contentType: a.contentType, content: pdf.bytes };
    }),
  );
}
