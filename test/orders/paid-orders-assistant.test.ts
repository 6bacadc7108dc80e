// An assistant runs paid orders and invoices through MCP alone (issue 26, item 2): it switches
// invoicing on, marks an order paid (replayed with the same idempotencyKey: one invoice), reads
// the invoice, is refused a second payment with the status named, refunds one ticket and finds the
// credit note correcting the invoice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Paid orders by assistant', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

describe('an assistant running payments and invoices through MCP', () => {
  it('invoices a payment and credits a refund', async () => {
    const client = await t.mcp(key, {}, '?toolsets=orders,finance');
    const listed = (await client.listTools()).tools;
    for (const name of ['confirm_payment', 'refund_order', 'get_invoicing', 'update_invoicing'])
      expect(listed.find((tool) => tool.name === name)?.description, name).toContain('Tessera extension');

    const event = await callTool(client, 'create_event', eventBody({ currency: 'NOK' }));
    expect(event.isError, JSON.stringify(event.data)).toBe(false);
    const eventId = event.data.eventId as string;
    const typeId = await pricedTicketType(t.server.services.db, eventId, 150_000, 25);
    const { orderId, attendeeIds } = await pendingOrder(
      t.server.services.db,
      eventId,
      typeId,
      2,
      'onAccount',
    );

    const settings = await callTool(client, 'update_invoicing', {
      eventId,
      enabled: true,
      sellerName: 'Fjord Konferanser AS',
      sellerVatNumber: 'NO 999 888 777 MVA',
      prefix: 'FK-',
      footer: 'Bank 1234.56.78901',
    });
    expect(settings.isError, JSON.stringify(settings.data)).toBe(false);
    expect((await callTool(client, 'get_invoicing', { eventId })).data).toEqual(settings.data);

    const args = { eventId, orderId, method: 'onAccount', provider: 'DNB', idempotencyKey: `pay-${orderId}` };
    const paid = await callTool(client, 'confirm_payment', args);
    expect(paid.isError, JSON.stringify(paid.data)).toBe(false);
    expect(paid.data).toMatchObject({ status: 'paid', paymentProvider: 'DNB', total: 3000 });
    expect((await callTool(client, 'confirm_payment', args)).data).toEqual(paid.data);

    const list = await callTool(client, 'list_invoices', { eventId });
    expect(list.data.data).toHaveLength(1);
    const invoice = await callTool(client, 'get_invoice', {
      eventId,
      invoiceId: list.data.data[0].invoiceId,
    });
    expect(invoice.data).toMatchObject({
      number: 'FK-0001',
      total: 3000,
      vat: 600,
      seller: { sellerName: 'Fjord Konferanser AS', prefix: 'FK-', footer: 'Bank 1234.56.78901' },
      lines: [{ quantity: 2, unitPrice: 1500, vatRate: 25 }],
    });

    const twice = await callTool(client, 'confirm_payment', {
      eventId,
      orderId,
      method: 'card',
      provider: 'x',
    });
    expect(twice.isError).toBe(true);
    expect(twice.data).toMatchObject({ code: 'orderNotAwaitingPayment', orderStatus: 'paid' });

    const refunded = await callTool(client, 'refund_order', {
      eventId,
      orderId,
      attendeeIds: [attendeeIds[0]],
    });
    expect(refunded.isError, JSON.stringify(refunded.data)).toBe(false);
    expect(refunded.data).toMatchObject({ status: 'paid', attendees: 1 });
    const credits = await callTool(client, 'list_invoices', { eventId, kind: 'creditNote' });
    expect(credits.data.data).toEqual([
      expect.objectContaining({
        number: 'FK-0002',
        correctsId: invoice.data.invoiceId,
        total: -1500,
        vat: -300,
      }),
    ]);
  });
});
