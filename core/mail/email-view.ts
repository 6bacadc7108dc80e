// The Email resource: one message of the event's e-mail log, what it was about and how its
// sending went. The recipient's address is personal data (people:read; gone once erased). The
// body is not shown: it is a copy of what the attendee and order views already show, and the log
// is there to answer "was it sent, and if not, why". Whether the body is still kept is: it is purged
// after the operator's retention period (purge-mail-bodies.ts).
import * as v from 'valibot';
import type { MailMessageRow } from '../../db/schema';
import { mailCauseKinds, mailStates } from '../../db/values';
import type { Ctx } from '../platform/context';
import { applyPersonalData } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { mailPersonal } from './mail-personal';

export const emailSchema = v.object({
  emailId: uuid('The e-mail id.'),
  eventId: uuid('The event id.'),
  attendeeId: v.nullable(uuid('The ticket it is about, when it is about one.')),
  orderId: v.nullable(uuid('The order it is about.')),
  cause: v.pipe(
    v.picklist(mailCauseKinds),
    v.description(
      'What caused it: ticketIssued (the confirmation with the ticket link and calendar entry), ticketCancelled, transferInstructions (an order awaiting a bank transfer), ticketResent, invoiceIssued (the invoice of a paid order, to its buyer), creditNoteIssued (the credit note of a refund), documentSent (an invoice or credit note sent on request), requestReceived (an order waiting for approval, to its buyer), requestDeclined (that order declined) or waitingListOffer (a place offered from a waiting list, with its link).',
    ),
  ),
  messageId: text('Its Message-ID header, the same on every attempt.'),
  recipient: v.nullable(v.pipe(v.string(), v.description('The address it goes to. Personal data.'))),
  subject: text('Its subject.'),
  state: v.pipe(
    v.picklist(mailStates),
    v.description('queued, sending, sent, failed (refused, or given up after the last retry) or cancelled.'),
  ),
  attempts: v.pipe(v.number(), v.integer(), v.description('SMTP attempts made.')),
  nextAttemptUtc: v.nullable(dateTime('When it is tried next, while queued.')),
  lastError: v.nullable(
    text("The SMTP server's last refusal or why it was cancelled (without the address)."),
  ),
  sentUtc: v.nullable(dateTime('When the SMTP server accepted it.')),
  createdUtc: dateTime('When it was queued.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
  bodyPurged: v.pipe(
    v.boolean(),
    v.description(
      'Whether its body (text, HTML and attachments) was purged after the retention period the operator sets (TESSERA_MAIL_BODY_RETENTION_DAYS, 90 days by default); who, when, which cause and the outcome stay.',
    ),
  ),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type EmailView = v.InferOutput<typeof emailSchema>;

export function emailView(ctx: Ctx, row: Omit<MailMessageRow, 'change_txn'>): EmailView {
  return applyPersonalData(
    ctx.actor,
    {
      emailId: row.id,
      eventId: row.event_id,
      attendeeId: row.attendee_id,
      orderId: row.order_id,
      cause: row.cause_kind,
      messageId: row.message_id,
      recipient: row.recipient,
      subject: row.subject,
      state: row.state,
      attempts: row.attempts,
      nextAttemptUtc: row.state === 'queued' ? row.next_attempt_utc : null,
      lastError: row.last_error,
      sentUtc: row.sent_utc,
      createdUtc: row.created_utc,
      updatedUtc: row.updated_utc,
      // An erased message lost its body with the person: that is erasure, not retention.
      bodyPurged: row.text_body === null && row.erased !== 1,
    },
    mailPersonal,
    row.erased === 1,
  );
}
