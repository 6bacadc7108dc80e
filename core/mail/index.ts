// Outgoing e-mail: queued in the transaction of its cause, sent by the mail sender, kept in the
// event's e-mail log (listEmails, getEmail). The only way into core/mail from other areas, rest, mcp and src.
export { queueRequestDeclined, queueRequestReceived } from './approval-mails';
export { queueDocumentMail } from './document-mails';
export { emailSchema, emailView } from './email-view';
export { cancelErasedMail } from './erase-mail';
export { getEmail } from './get-email';
export { listEmails } from './list-emails';
export { mailPersonal } from './mail-personal';
export { isSampleWorkspace, mailRefusal } from './mail-policy';
export { MailSender } from './mail-sender';
export type { MailSendResult, MailTransport, OutgoingMessage } from './mail-transport';
export { defaultMailBodyRetentionDays, purgeMailBodies } from './purge-mail-bodies';
export { sendInvoice } from './send-invoice';
export {
  queueCancellationNotices,
  queueTicketConfirmations,
  queueTransferInstructions,
} from './ticket-mails';
export { offerOrigin, queueWaitingListOffer, type WaitingOfferFacts } from './waiting-list-mail';
