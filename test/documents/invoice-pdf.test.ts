// Invoices and credit notes as PDF (issue 52, item 5), live over HTTPS with a real SMTP server: the
// PDF read back with pdf.js names the seller, the buyer, the number, every line and the totals, the
// VAT per rate in both currencies where the event states a second; JPY prints no decimals and KWD
// three; the same document downloads byte for byte the same; the paid order's e-mail carries the
// invoice and the refund's the credit note, the very bytes the API gives; the buyer downloads
// theirs without a key by the link they were sent (a wrong token is 404); mark-paid and refund
// answers name the document they issued; sendInvoice sends it again over REST and MCP, replays an
// idempotent retry, is in the activity log, and refuses an erased buyer.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailFrom, serverWithMail } from '../mail/mail-support';
import { eventBody, expectProblem } from '../support/fixtures';
import { pdfInfo, pdfText } from '../support/pdf-text';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import type { TestServer } from '../support/server';
import type { ReceivedMail, SmtpTestServer } from '../support/smtp';

let t: TestServer;
let smtp: SmtpTestServer;
let key: string;
let readerKey: string;
let mcp: Client;

const db = () => t.server.services.db;

async function invoicingEvent(currency: string, settings: Record<string, unknown>) {
  const made = await t.api('/events', { key, method: 'POST', body: eventBody({ currency }) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const eventId = made.body.eventId as string;
  const set = await t.api(`/events/${eventId}/invoicing`, {
    key,
    method: 'PATCH',
    body: { enabled: true, ...settings },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return eventId;
}

async function paidOrder(
  eventId: string,
  priceMinor: number,
  vatRate: number,
  tickets: number,
  buyerName?: string,
) {
  const typeId = await pricedTicketType(db(), eventId, priceMinor, vatRate);
  const order = await pendingOrder(db(), eventId, typeId, tickets);
  if (buyerName)
    await db().updateTable('orders').set({ buyer_name: buyerName }).where('id', '=', order.orderId).execute();
  const paid = await t.api(`/events/${eventId}/orders/${order.orderId}/mark-paid`, {
    key,
    method: 'POST',
    body: { method: 'transfer', provider: 'DNB' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { ...order, typeId, paid: paid.body };
}

async function download(eventId: string, invoiceId: string, k = key) {
  const res = await t.fetch(`${t.server.origin}/api/v1/events/${eventId}/invoices/${invoiceId}/pdf`, {
    headers: { authorization: `Bearer ${k}` },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const mailTo = (address: string, subject: RegExp) => (m: ReceivedMail) =>
  m.to.includes(address) && subject.test(m.subject);

async function mailArriving(match: (m: ReceivedMail) => boolean, timeoutMs = 30_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received.find(match);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no such message among ${smtp.received.map((m) => m.subject)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  const { workspaceId } = await t.workspace('Nordic Events');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: readerKey } = await t.key({ workspaceId, scopes: ['finance:read'], expires: 'never' }));
  mcp = await t.mcp(key);
});
afterAll(async () => {
  await mcp?.close();
  await t?.close();
  await smtp?.close();
});

describe('an invoice in euros with its VAT also in kroner', () => {
  let eventId: string;
  let order: Awaited<ReturnType<typeof paidOrder>>;
  let invoiceId: string;
  let pdf: Buffer;

  beforeAll(async () => {
    eventId = await invoicingEvent('EUR', {
      sellerName: 'Nordic Events AS',
      sellerAddress: 'Storgata 1, 0155 Oslo',
      sellerVatNumber: 'NO 912 345 678 MVA',
      sellerRegistration: '912 345 678',
      prefix: 'NS-2027-',
      footer: 'Paid with thanks. Bank: DNB 1234.56.78901',
      vatCurrency: 'NOK',
      vatExchangeRate: 11.5,
    });
    // 121.00 EUR each, 21 % VAT within; two tickets for Łukasz Żółć, a name in Polish letters.
    order = await paidOrder(eventId, 12_100, 21, 2, 'Łukasz Żółć');
    invoiceId = order.paid.invoice?.invoiceId;
  });

  it('is named by the mark-paid answer that issued it, beside the order fields of the spec', async () => {
    expect(order.paid.invoice).toEqual({ invoiceId: expect.any(String), number: 'NS-2027-0001' });
    expect(order.paid).toMatchObject({ orderId: order.orderId, status: 'paid' });
  });

  it('downloads as a PDF attachment named by its number, for finance:read', async () => {
    const { res, bytes } = await download(eventId, invoiceId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="NS-2027-0001.pdf"');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    pdf = bytes;
  });

  it('prints the seller, the buyer, number, lines, VAT per rate in both currencies and totals', async () => {
    const text = await pdfText(pdf);
    for (const words of [
      'Invoice',
      'Number: NS-2027-0001',
      'Nordic Events AS',
      'Storgata 1, 0155 Oslo',
      'VAT number: NO 912 345 678 MVA',
      'Organisation number: 912 345 678',
      'Łukasz Żółć',
      'Buyer AS',
      'Conference pass',
      '121.00 EUR',
      '21 %',
      '42.00 EUR',
      '242.00 EUR',
      'VAT 21 % on 200.00 EUR',
      'VAT in NOK',
      '483.00 NOK',
      '1 EUR = 11.5 NOK',
      'Total excluding VAT',
      '200.00 EUR',
      'Paid with thanks. Bank: DNB 1234.56.78901',
    ])
      expect(text).toContain(words);
    expect(text).toMatch(
      /Description Qty Unit price VAT rate VAT Amount Conference pass 2 121\.00 EUR 21 % 42\.00 EUR 242\.00 EUR/,
    );
    expect(text).toMatch(/Total 242\.00 EUR/);
  });

  it('is the same bytes downloaded again, dated when it was issued', async () => {
    const again = await download(eventId, invoiceId);
    expect(again.bytes.equals(pdf)).toBe(true);
    const issued = await t.api(`/events/${eventId}/invoices/${invoiceId}`, { key });
    const info = await pdfInfo(pdf);
    expect(info.Title).toBe('Invoice NS-2027-0001');
    const created = String(info.CreationDate).slice(2, 16);
    expect(created).toBe((issued.body.issuedUtc as string).replace(/[-T:]/g, '').slice(0, 14));
  });

  it('withholds the buyer from a key without people:read', async () => {
    const { res, bytes } = await download(eventId, invoiceId, readerKey);
    expect(res.status).toBe(200);
    const text = await pdfText(bytes);
    expect(text).toContain('Number: NS-2027-0001');
    expect(text).not.toContain('Łukasz');
    expect(text).toContain('withheld');
  });

  it('answers 404 notFound for a document not of this event', async () => {
    const other = await invoicingEvent('EUR', {});
    const res = await t.api(`/events/${other}/invoices/${invoiceId}/pdf`, { key });
    expectProblem(res, 404, 'notFound');
  });

  it('goes to the buyer attached to the paid e-mail: the same bytes, with a link that needs no key', async () => {
    const mail = await mailArriving(mailTo(order.buyerEmail, /^Invoice NS-2027-0001/));
    expect(mail.from).toBe(mailFrom);
    const attached = mail.attachments.find((a) => a.filename === 'NS-2027-0001.pdf');
    expect(attached?.contentType).toBe('application/pdf');
    expect(attached!.bytes.equals(pdf)).toBe(true);
    const link = /https:\/\/[^\s]+\/d\/[A-Za-z0-9_-]{44}/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    expect(mail.html).toContain(link);
    const res = await t.fetch(link!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="NS-2027-0001.pdf"');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('keeps in the mail queue which document is attached, not its bytes', async () => {
    const row = await db()
      .selectFrom('mail_messages')
      .select('attachments')
      .where('cause_kind', '=', 'invoiceIssued')
      .where('cause_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.attachments!)).toEqual([
      { filename: 'NS-2027-0001.pdf', contentType: 'application/pdf', document: { eventId, invoiceId } },
    ]);
  });

  it('answers 404 for a buyer link whose token was not made here', async () => {
    const mail = await mailArriving(mailTo(order.buyerEmail, /^Invoice NS-2027-0001/));
    const link = /https:\/\/[^\s]+\/d\/([A-Za-z0-9_-]{44})/.exec(mail.text)!;
    const token = link[1]!;
    const forged = `${token.slice(0, 22)}${token.at(22) === 'A' ? 'B' : 'A'}${token.slice(23)}`;
    for (const bad of [forged, token.slice(0, 43), 'x'.repeat(44)]) {
      const res = await t.fetch(`${t.server.origin}/d/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });

  it('refunds with a credit note the answer names, crediting the invoice, e-mailed to the buyer', async () => {
    const refund = await t.api(`/events/${eventId}/orders/${order.orderId}/refund`, {
      key,
      method: 'POST',
      body: { attendeeIds: [order.attendeeIds[0]] },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.creditNote).toEqual({ invoiceId: expect.any(String), number: 'NS-2027-0002' });
    const { bytes } = await download(eventId, refund.body.creditNote.invoiceId);
    const text = await pdfText(bytes);
    for (const words of [
      'Credit note',
      'Number: NS-2027-0002',
      'Credits invoice: NS-2027-0001',
      '-121.00 EUR',
      '-21.00 EUR',
    ])
      expect(text).toContain(words);
    expect(text).toMatch(/Conference pass -1 121\.00 EUR 21 %/);
    expect(text).toMatch(/Total credited -121\.00 EUR/);
    const mail = await mailArriving(mailTo(order.buyerEmail, /^Credit note NS-2027-0002/));
    const attached = mail.attachments.find((a) => a.filename === 'NS-2027-0002.pdf');
    expect(attached!.bytes.equals(bytes)).toBe(true);
  });
});

describe('amounts in the currency’s own decimals', () => {
  it('prints a JPY invoice without decimals', async () => {
    const eventId = await invoicingEvent('JPY', { sellerName: '東京イベント株式会社', prefix: 'JP-' });
    const order = await paidOrder(eventId, 12_000, 10, 3);
    const { bytes } = await download(eventId, order.paid.invoice.invoiceId);
    const text = await pdfText(bytes);
    // 12,000 JPY each, 1,091 JPY VAT within each (10/110), 36,000 JPY in all.
    for (const words of ['12,000 JPY', '3,273 JPY', '36,000 JPY', 'VAT 10 % on 32,727 JPY'])
      expect(text).toContain(words);
    expect(text).not.toMatch(/\d\.\d+ JPY/);
  });

  it('prints a KWD invoice with three decimals, its VAT in euros too', async () => {
    const eventId = await invoicingEvent('KWD', { prefix: 'KW-', vatCurrency: 'EUR', vatExchangeRate: 3 });
    // 12.500 KWD each, 5 % VAT within: 1.190 KWD on the two.
    const order = await paidOrder(eventId, 12_500, 5, 2);
    const { bytes } = await download(eventId, order.paid.invoice.invoiceId);
    const text = await pdfText(bytes);
    for (const words of ['12.500 KWD', '1.190 KWD', '25.000 KWD', 'VAT 5 % on 23.810 KWD', '3.57 EUR'])
      expect(text).toContain(words);
  });
});
