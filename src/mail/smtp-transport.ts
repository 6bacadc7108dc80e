// Sends e-mail through the operator's SMTP server with nodemailer (a few pooled connections).
// Its errors are sorted as the sender needs them: a 5xx answer to the recipient (RCPT TO) or the
// message (DATA) is a refusal for good; everything else (4xx answers, a refused or dropped
// connection, a time-out, a failed sign-in the operator can fix) is tried again on the schedule.
import nodemailer from 'nodemailer';
import type { MailSendResult, MailTransport, OutgoingMessage } from '../../core/mail';
import type { SmtpSettings } from './mail-settings';

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
}

export function smtpTransport(smtp: SmtpSettings): MailTransport {
  const transporter = nodemailer.createTransport({
    pool: true,
    maxConnections: 4,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
    requireTLS: smtp.starttls === 'required',
    ignoreTLS: smtp.starttls === 'never',
    // A dead server is noticed in seconds, not nodemailer's minutes: the message is tried again later.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message: OutgoingMessage): Promise<MailSendResult> {
      try {
        const info = await transporter.sendMail({
          from: { name: message.from.name, address: message.from.address },
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        });
        if (info.rejected.length > 0)
          return { outcome: 'refused', error: `The server refused the recipient: ${info.response}` };
        return { outcome: 'sent', response: info.response };
      } catch (err) {
        const e = err as SmtpError;
        const said = e.response ?? e.message;
        const permanent =
          e.responseCode !== undefined &&
          e.responseCode >= 500 &&
          (e.code === 'EENVELOPE' || e.code === 'EMESSAGE');
        return {
          outcome: permanent ? 'refused' : 'retry',
          error: `${e.code ?? 'ERROR'}: ${said}`.slice(0, 500),
        };
      }
    },
    close: () => transporter.close(),
  };
}
