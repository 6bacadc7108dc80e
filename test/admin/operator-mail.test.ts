// `tessera order mark-paid` issues tickets as the API's mark-paid does: each ticket's e-mail is
// queued in the command's transaction and the running service sends it, with links on the public
// URL (TESSERA_PUBLIC_URL or --public-url). A command without the service's e-mail settings or
// its public URL is refused, naming what to give, and changes nothing; --no-email says the
// service sends none. Run as the real command beside a server sending through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToRegisterFor, mailFrom, mailRows, serverWithMail, settled } from '../mail/mail-support';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { sampleIds } from '../support/sales';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { runTessera } from '../support/spawned';

let t: TestServer;
let smtp: SmtpTestServer;
let env: Record<string, string>;
const publicUrl = 'https://events.example.org';

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  env = { TESSERA_SMTP_URL: smtp.url, TESSERA_MAIL_FROM: mailFrom, TESSERA_PUBLIC_URL: publicUrl };
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** An event of a workspace for real events, with an order of two tickets awaiting a transfer. */
async function awaitingTransfer() {
  const { workspaceId, eventId } = await eventToRegisterFor(t);
  const typeId = await pricedTicketType(t.server.services.db, eventId, 12_500, 25);
  const order = await pendingOrder(t.server.services.db, eventId, typeId, 2, 'transfer');
  return { workspaceId, eventId, ...order };
}

const markPaid = (
  workspaceId: string,
  orderId: string,
  settings: Record<string, string>,
  more: string[] = [],
) =>
  runTessera(
    ['order', 'mark-paid', '--workspace', workspaceId, orderId, '--data', t.dataDir, ...more],
    settings,
  );

const orderStatus = async (orderId: string) =>
  (
    await t.server.services.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
  ).status;

/** What was written about the order besides the order itself: webhooks and the activity entry. */
const tracesOf = async (orderId: string) => ({
  outbox: (
    await t.server.services.db
      .selectFrom('outbox')
      .select('id')
      .where('payload', 'like', `%${orderId}%`)
      .execute()
  ).length,
  activity: (
    await t.server.services.db
      .selectFrom('workspace_activity')
      .select('id')
      .where('resource_id', '=', orderId)
      .execute()
  ).length,
});

describe('tessera order mark-paid', () => {
  it("queues each ticket's e-mail as the API does, sent by the running service with links on the public URL", async () => {
    const order = await awaitingTransfer();
    const run = await markPaid(order.workspaceId, order.orderId, env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ orderId: order.orderId, status: 'paid' });
    const rows = await settled(t, order.eventId);
    expect(rows.map((r) => [r.cause_kind, r.state])).toEqual([
      ['ticketIssued', 'sent'],
      ['ticketIssued', 'sent'],
    ]);
    const tickets = await t.server.services.db
      .selectFrom('attendees')
      .select(['email', 'ticket_code'])
      .where('order_id', '=', order.orderId)
      .execute();
    for (const ticket of tickets) {
      const [mail] = smtp.received.filter((m) => m.to.includes(ticket.email!));
      expect(mail!.text).toContain(`${publicUrl}/t/${ticket.ticket_code}`);
      expect(mail!.text).not.toContain('localhost');
    }
  });

  it('takes the public URL from --public-url as well', async () => {
    const order = await awaitingTransfer();
    const { TESSERA_PUBLIC_URL: _none, ...withoutUrl } = env;
    const run = await markPaid(order.workspaceId, order.orderId, withoutUrl, [
      '--public-url',
      'https://tickets.example.net',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const rows = await mailRows(t, order.eventId);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.text_body).toContain('https://tickets.example.net/t/');
  });

  it('refuses to send links to localhost when no public URL is set, naming TESSERA_PUBLIC_URL, and changes nothing', async () => {
    const order = await awaitingTransfer();
    const { TESSERA_PUBLIC_URL: _none, ...withoutUrl } = env;
    const run = await markPaid(order.workspaceId, order.orderId, withoutUrl);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const said = JSON.parse(run.stderr);
    expect(said.error).toBe('emailNotSent');
    expect(said.detail).toContain('TESSERA_PUBLIC_URL');
    expect(said.detail).toContain('Nothing was changed.');
    expect(await orderStatus(order.orderId)).toBe('transfer');
    expect(await mailRows(t, order.eventId)).toEqual([]);
    expect(await tracesOf(order.orderId)).toEqual({ outbox: 0, activity: 0 });
  });

  it("refuses without the service's e-mail settings, naming them and --no-email, and changes nothing", async () => {
    const order = await awaitingTransfer();
    const run = await markPaid(order.workspaceId, order.orderId, { TESSERA_PUBLIC_URL: publicUrl });
    expect(run.code).toBe(2);
    const said = JSON.parse(run.stderr);
    expect(said.error).toBe('emailNotSent');
    for (const named of ['TESSERA_SMTP_URL', 'TESSERA_MAIL_FROM', '--no-email'])
      expect(said.detail).toContain(named);
    expect(await orderStatus(order.orderId)).toBe('transfer');
    expect(await mailRows(t, order.eventId)).toEqual([]);
    expect(await tracesOf(order.orderId)).toEqual({ outbox: 0, activity: 0 });
  });

  it('issues the tickets without e-mail with --no-email, needing no e-mail settings', async () => {
    const order = await awaitingTransfer();
    const run = await markPaid(order.workspaceId, order.orderId, {}, ['--no-email']);
    expect(run.code, run.stderr).toBe(0);
    expect(await orderStatus(order.orderId)).toBe('paid');
    expect(await mailRows(t, order.eventId)).toEqual([]);
  });

  it('needs no e-mail settings where no e-mail would go: a sample workspace', async () => {
    const { workspaceId } = await t.workspace('Sample for mark-paid', true);
    const summit = sampleIds(workspaceId).event('summit');
    const pending = await t.server.services.db
      .selectFrom('orders')
      .select('id')
      .where('event_id', '=', summit)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const run = await markPaid(workspaceId, pending.id, {});
    expect(run.code, run.stderr).toBe(0);
    expect(await orderStatus(pending.id)).toBe('paid');
    expect(await mailRows(t, summit)).toEqual([]);
  });
});
