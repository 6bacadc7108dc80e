// A real SMTP server for tests (smtp-server on an ephemeral port of 127.0.0.1, no TLS, no
// sign-in needed) that keeps every message it accepts, parsed simply: headers, the text and HTML
// parts, attachments. A test can make it answer RCPT TO or DATA with an error of its choice.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MailPart {
  headers: Record<string, string>;
  contentType: string;
  filename: string | null;
  body: string;
  /** The part's bytes as decoded from its transfer encoding (a PDF's, say, which body mangles as text). */
  bytes: Buffer;
}

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  raw: string;
  headers: Record<string, string>;
  messageId: string;
  subject: string;
  text: string;
  html: string;
  attachments: MailPart[];
}

/** What the server answers a recipient or a message: accepted, or an SMTP error code and text. */
export type SmtpAnswer = { code: number; message: string } | null;

export interface SmtpTestServer {
  port: number;
  /** smtp://127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** Answers RCPT TO for each recipient (default: accepted). */
  onRecipient(answer: (address: string) => SmtpAnswer): void;
  /** Answers DATA for each message, after reading it (default: accepted; a refused one is not kept). */
  onMessage(answer: (mail: ReceivedMail) => SmtpAnswer): void;
  /** Answers each message only after this many milliseconds (a slow server). */
  delay(ms: number): void;
  /** Waits until `count` messages were accepted (or fails after the time-out). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function smtpError(answer: { code: number; message: string }): Error {
  const error = new Error(answer.message) as Error & { responseCode: number };
  error.responseCode = answer.code;
  return error;
}

export async function startSmtpServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let recipientAnswer: (address: string) => SmtpAnswer = () => null;
  let messageAnswer: (mail: ReceivedMail) => SmtpAnswer = () => null;
  let delayMs = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const answer = recipientAnswer(address.address);
      callback(answer ? smtpError(answer) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        const mail = parseMail(
          Buffer.concat(chunks).toString('utf8'),
          session.envelope.rcptTo.map((r) => r.address),
          session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        );
        const answer = messageAnswer(mail);
        if (answer) return callback(smtpError(answer));
        received.push(mail);
        callback(null);
      });
    },
  });
  // A client killed mid-conversation (the crash tests) resets its connection: expected, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    onRecipient: (answer) => {
      recipientAnswer = answer;
    },
    onMessage: (answer) => {
      messageAnswer = answer;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    // Answers as soon as they are in; the limit only ends a wait for what never comes.
    async waitFor(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} message(s) arrived, not ${count}, within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers of a part: unfolded, names in lower case, the first of each name. */
function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split(/\r\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= or ?B?), as nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function parameter(header: string, name: string): string | null {
  const match = new RegExp(`${name}\\*?=(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(header);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** The leaf parts of a MIME entity, each decoded from its transfer encoding. */
function leafParts(entity: string): MailPart[] {
  const split = entity.indexOf('\r\n\r\n');
  const headers = parseHeaders(split >= 0 ? entity.slice(0, split) : entity);
  const body = split >= 0 ? entity.slice(split + 4) : '';
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = parameter(contentType, 'boundary');
  if (contentType.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => leafParts(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body, 'utf8');
  const decoded =
    encoding === 'base64'
      ? bytes.toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  const disposition = headers['content-disposition'] ?? '';
  const filename = parameter(disposition, 'filename') ?? parameter(contentType, 'name');
  return [
    { headers, contentType: contentType.split(';')[0]!.trim().toLowerCase(), filename, body: decoded, bytes },
  ];
}

export function parseMail(raw: string, to: string[], from: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  const parts = leafParts(raw);
  const attachments = parts.filter((p) => p.filename !== null);
  const inline = parts.filter((p) => p.filename === null);
  return {
    to,
    from,
    raw,
    headers,
    messageId: headers['message-id'] ?? '',
    subject: headers.subject ?? '',
    text: inline.find((p) => p.contentType === 'text/plain')?.body ?? '',
    html: inline.find((p) => p.contentType === 'text/html')?.body ?? '',
    attachments,
  };
}
