// What the e-mail suites share: a test server that sends through a test SMTP server, and a
// workspace with an event and a free ticket type to register people for.
import { eventBody } from '../support/fixtures';
import { addTicketType } from '../support/sales';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';

export const mailFrom = 'tickets@tessera.test';

export async function serverWithMail(
  options: TestServerOptions = {},
): Promise<{ t: TestServer; smtp: SmtpTestServer }> {
  const smtp = await startSmtpServer();
  const t = await startTestServer({
    ...options,
    env: { TESSERA_SMTP_URL: smtp.url, TESSERA_MAIL_FROM: mailFrom, ...(options.env ?? {}) },
  });
  return { t, smtp };
}

/** A workspace (sample data when asked), a key with every scope, an event and a free ticket type. */
export async function eventToRegisterFor(
  t: TestServer,
  options: { sample?: boolean; name?: string } = {},
): Promise<{ workspaceId: string; key: string; eventId: string; ticketTypeId: string; eventName: string }> {
  const { workspaceId } = await t.workspace('Mail workspace', options.sample ?? false);
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  const body = eventBody(options.name ? { name: options.name } : {});
  const made = await t.api('/events', { key, method: 'POST', body });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  const eventId = made.body.eventId as string;
  const ticketTypeId = await addTicketType(t, eventId, { name: 'Day pass' });
  return { workspaceId, key, eventId, ticketTypeId, eventName: body.name as string };
}

/** The rows of the mail queue for an event, oldest first. */
export function mailRows(t: TestServer, eventId: string) {
  return t.server.services.db
    .selectFrom('mail_messages')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('created_utc')
    .orderBy('id')
    .execute();
}

/** Waits until the event's messages are all out of the queue (sent, failed or cancelled). */
export async function settled(t: TestServer, eventId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await mailRows(t, eventId);
    if (rows.every((r) => r.state !== 'queued' && r.state !== 'sending')) return rows;
    if (Date.now() > deadline) throw new Error(`still queued: ${JSON.stringify(rows.map((r) => r.state))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
