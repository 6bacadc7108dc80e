// What the mail sender hands to the SMTP transport (src/mail/smtp-transport.ts, nodemailer) and
// what it hears back: sent, worth trying again (a 4xx answer, a connection that failed), or refused
// for good (a 5xx answer to the recipient or the message).

export interface OutgoingMessage {
  /** The sender's name (the event's) and address (TESSERA_MAIL_FROM). */
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable for one cause: a message sent again after a crash carries the same one. */
  messageId: string;
  /** Each file as sent: text, or bytes (a PDF). */
  attachments: { filename: string; contentType: string; content: string | Buffer }[];
}

export type MailSendResult =
  | { outcome: 'sent'; response: string }
  | { outcome: 'retry' | 'refused'; error: string };

export interface MailTransport {
  send(message: OutgoingMessage): Promise<MailSendResult>;
  close(): void;
}
