// Queues one e-mail in the caller's transaction, so it exists exactly when its cause does: the
// row is unique by its cause (cause_kind, cause_id), so a cause queued twice (a retried request,
// two paths meeting) is queued once. Its Message-ID derives from the cause too: a message sent
// again after a crash between the SMTP conversation and the "sent" mark carries the same one.

import { nextChangeSeq } from '../../db/sequence';
import type { MailCauseKind } from '../../db/values';
import type { Ctx } from '../platform/context';
import { newId } from '../platform/ids';

/**
 * A file a message carries: its text as queued (a calendar entry), or a document rendered again
 * when the message is sent (an invoice's PDF). A document is immutable and prints to the same
 * bytes each time, so the queue keeps only which one it is: no PDF in the database, none left in
 * the e-mail log once its bodies are purged, and an erasure in between leaves no copy behind.
 */
export type MailAttachment =
  | { filename: string; contentType: string; content: string }
  | { filename: string; contentType: string; document: { eventId: string; invoiceId: string } };

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export interface QueuedMail {
  event: { id: string; workspace_id: string };
  causeKind: MailCauseKind;
  causeId: string;
  attendeeId: string | null;
  orderId: string | null;
  recipient: string;
  content: MailContent;
}

/** The Message-ID of a cause: the same however often it is sent. */
export function messageIdOf(causeKind: MailCauseKind, causeId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1) || 'tessera.invalid';
  return `<${causeKind}.${causeId}@${domain}>`;
}

/** Queues the message, due now; answers false when its cause was queued before. */
export async function queueMail(ctx: Ctx, from: string, mail: QueuedMail): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const inserted = await ctx.db
    .insertInto('mail_messages')
    .values({
      id: newId(),
      workspace_id: mail.event.workspace_id,
      event_id: mail.event.id,
      attendee_id: mail.attendeeId,
      order_id: mail.orderId,
      cause_kind: mail.causeKind,
      cause_id: mail.causeId,
      message_id: messageIdOf(mail.causeKind, mail.causeId, from),
      recipient: mail.recipient,
      subject: mail.content.subject,
      text_body: mail.content.text,
      html_body: mail.content.html,
      attachments: JSON.stringify(mail.content.attachments),
      state: 'queued',
      attempts: 0,
      next_attempt_utc: now,
      claimed_until_utc: null,
      claimed_by: null,
      last_error: null,
      sent_utc: null,
      erased: 0,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    })
    .onConflict((oc) => oc.columns(['cause_kind', 'cause_id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
