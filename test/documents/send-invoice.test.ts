// Sending an invoice or credit note (issue 52, item 5), live over HTTPS and MCP with a real SMTP
// server: sendInvoice e-mails the PDF to the buyer or an address given, answers the e-mail queued,
// replays a retry with the same Idempotency-Key (REST) or idempotencyKey (MCP) without sending
// twice, is in the workspace's activity log without the address, and refuses an erased buyer with
// 409 emailNotSent; get_invoice_pdf hands an assistant the very bytes REST answers, as an embedded
// resource.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerDocumentUrl } from '../../core/documents';
import { serverWithMail } from '../mail/mail-support';
import { eventBody, expectProblem } from '../support/fixtures';
import { pdfText } from '../support/pdf-text';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { callTool } from '../support/sales';
import type { TestServer } from '../support/server';
import type { ReceivedMail, SmtpTestServer } from '../support/smtp';

let t: TestServer;
let smtp: SmtpTestServer;
let key: string;
let workspaceId: string;
let client: Client;
let eventId: string;

const db = () => t.server.services.db;

async function paidInvoice() {
  const typeId = await pricedTicketType(db(), eventId, 30_000, 25);
  const order = await pendingOrder(db(), eventId, typeId, 1);
  const paid = await t.api(`/events/${eventId}/orders/${order.orderId}/mark-paid`, {
    key,
    method: 'POST',
    body: { method: 'transfer', provider: 'DNB' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return {
    ...order,
    invoiceId: paid.body.invoice.invoiceId as string,
    number: paid.body.invoice.number as string,
  };
}

const send = (invoiceId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.api(`/events/${eventId}/invoices/${invoiceId}/send`, { key, method: 'POST', body, headers });

async function arrived(match: (m: ReceivedMail) => boolean, timeoutMs = 30_000): Promise<ReceivedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received.filter(match);
    if (found.length > 0) return found;
    if (Date.now() > deadline)
      throw new Error(`none among ${smtp.received.map((m) => `${m.to} ${m.subject}`)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  ({ workspaceId } = await t.workspace('Fjord Konferanser'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency: 'NOK' }) });
  eventId = made.body.eventId;
  const set = await t.api(`/events/${eventId}/invoicing`, {
    key,
    method: 'PATCH',
    body: { enabled: true, sellerName: 'Fjord Konferanser AS', prefix: 'FK-' },
  });
  expect(set.status).toBe(200);
  client = await t.mcp(key, {}, '?toolsets=finance');
});
afterAll(async () => {
  await client?.close();
  await t?.close();
  await smtp?.close();
});

describe('sendInvoice over REST', () => {
  it('sends the PDF to an address given, once for a retried Idempotency-Key, and logs it without the address', async () => {
    const { invoiceId, number } = await paidInvoice();
    const headers = { 'idempotency-key': `send-${invoiceId}` };
    const first = await send(invoiceId, { to: 'accounts@buyer.example' }, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ cause: 'documentSent', recipient: 'accounts@buyer.example' });
    const again = await send(invoiceId, { to: 'accounts@buyer.example' }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.emailId).toBe(first.body.emailId);

    const [mail] = await arrived((m) => m.to.includes('accounts@buyer.example'));
    expect(mail!.subject).toMatch(new RegExp(`^Invoice ${number}`));
    const pdf = mail!.attachments.find((a) => a.filename === `${number}.pdf`)!;
    expect(await pdfText(pdf.bytes)).toContain(`Number: ${number}`);
    const queued = await db()
      .selectFrom('mail_messages')
      .select('id')
      .where('cause_kind', '=', 'documentSent')
      .where('recipient', '=', 'accounts@buyer.example')
      .execute();
    expect(queued).toHaveLength(1);

    const logged = await db()
      .selectFrom('workspace_activity')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('action', '=', 'sendInvoice')
      .execute();
    expect(logged).toEqual([
      expect.objectContaining({
        resource_type: 'invoice',
        resource_id: invoiceId,
        summary: 'to an address given',
      }),
    ]);
  });

  it("sends it again to the buyer's own address when none is given", async () => {
    const { invoiceId, buyerEmail, number } = await paidInvoice();
    const res = await send(invoiceId, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sent = await db()
      .selectFrom('mail_messages')
      .select('message_id')
      .where('id', '=', res.body.emailId)
      .executeTakeFirstOrThrow();
    const [mail] = await arrived((m) => m.to.includes(buyerEmail) && m.messageId === sent.message_id);
    expect(mail!.text).toContain(`Here is the invoice ${number}`);
    expect(mail!.attachments.map((a) => a.filename)).toEqual([`${number}.pdf`]);
  });

  it('refuses an address that is none with 400, and a document of no such id with 404', async () => {
    const { invoiceId } = await paidInvoice();
    const bad = await send(invoiceId, { to: 'not an address' });
    expect(expectProblem(bad, 400, 'invalidRequest').errors[0].field).toBe('to');
    expectProblem(await send('0190d6a4-0000-7000-8000-000000000000', {}), 404, 'notFound');
  });

  it('refuses a buyer who erased their data with 409 emailNotSent, and their link answers 404', async () => {
    const { invoiceId, buyerEmail } = await paidInvoice();
    const link = buyerDocumentUrl(t.server.services.secrets, t.server.origin, invoiceId);
    expect((await t.fetch(link)).status).toBe(200);
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { email: buyerEmail } });
    expect(erased.status, JSON.stringify(erased.body)).toBeLessThan(300);
    const res = await send(invoiceId, { to: 'accounts@buyer.example' });
    expect(expectProblem(res, 409, 'emailNotSent').detail).toMatch(/erased/);
    // Their own download link goes with them.
    expect((await t.fetch(link)).status).toBe(404);
  });
});

describe('the invoice tools over MCP', () => {
  it('get_invoice_pdf answers the PDF as an embedded resource, the same bytes as REST', async () => {
    const { invoiceId, number } = await paidInvoice();
    const result = (await client.callTool({
      name: 'get_invoice_pdf',
      arguments: { eventId, invoiceId },
    })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      invoiceId,
      number,
      kind: 'invoice',
      fileName: `${number}.pdf`,
      mediaType: 'application/pdf',
      personalData: 'included',
    });
    const resource = result.content.find((c: any) => c.type === 'resource').resource;
    expect(resource.mimeType).toBe('application/pdf');
    expect(resource.uri).toContain(`/invoices/${invoiceId}/pdf`);
    const bytes = Buffer.from(resource.blob, 'base64');
    expect(bytes.length).toBe(result.structuredContent.bytes);
    const rest = await t.fetch(`${t.server.origin}/api/v1/events/${eventId}/invoices/${invoiceId}/pdf`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(Buffer.from(await rest.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await pdfText(bytes)).toContain('Fjord Konferanser AS');
  });

  it('send_invoice sends once for a repeated idempotencyKey, and refuses an erased buyer', async () => {
    const { invoiceId, buyerEmail } = await paidInvoice();
    const args = { eventId, invoiceId, to: 'ap@buyer.example', idempotencyKey: `mcp-${invoiceId}` };
    const first = await callTool(client, 'send_invoice', args);
    expect(first.isError, JSON.stringify(first.data)).toBe(false);
    expect(first.data).toMatchObject({ cause: 'documentSent', recipient: 'ap@buyer.example' });
    expect((await callTool(client, 'send_invoice', args)).data.emailId).toBe(first.data.emailId);
    await arrived((m) => m.to.includes('ap@buyer.example'));

    await t.api('/people/erasure', { key, method: 'POST', body: { email: buyerEmail } });
    const refused = await callTool(client, 'send_invoice', { eventId, invoiceId });
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ code: 'emailNotSent', status: 409 });
  });
});
