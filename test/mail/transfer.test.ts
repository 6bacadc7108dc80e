// An order awaiting a bank transfer: its buyer is sent the instructions (order reference, amount
// due with its currency, the event's payment instructions, what happens after payment), queued
// by queueTransferInstructions in the caller's transaction; once the order is marked paid, each
// ticket's confirmation follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueTransferInstructions } from '../../core/mail/ticket-mails';
import type { Ctx } from '../../core/platform/context';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailRows, serverWithMail, settled } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

/** Runs queueTransferInstructions in a transaction of its own, as the sign-up's order path does. */
function queueInstructions(eventId: string, orderId: string) {
  const { services } = t.server;
  return services.writes.run((trx) =>
    queueTransferInstructions(
      { db: trx, clock: services.clock, services, request: { origin: t.server.publicOrigin } } as Ctx,
      eventId,
      orderId,
    ),
  );
}

describe('bank-transfer instructions', () => {
  it('reach the buyer with the reference, the amount due, the instructions and what follows; paid, the tickets follow', async () => {
    const { workspaceId, key, eventId, eventName } = await eventToRegisterFor(t);
    await t.server.services.db
      .insertInto('event_sign_up')
      .values({
        event_id: eventId,
        workspace_id: workspaceId,
        public_form: 1,
        payment_instructions: 'IBAN NO93 8601 1117 947 <Fjord Bank>',
        send_emails: 1,
        updated_utc: new Date().toISOString(),
      })
      .execute();
    const typeId = await pricedTicketType(t.server.services.db, eventId, 12_500, 25);
    const order = await pendingOrder(t.server.services.db, eventId, typeId, 2, 'transfer');
    const { reference } = await t.server.services.db
      .selectFrom('orders')
      .select('reference')
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(await queueInstructions(eventId, order.orderId)).toBe(true);
    // Once per order, however often it is asked.
    expect(await queueInstructions(eventId, order.orderId)).toBe(false);
    const [instructions] = await settled(t, eventId);
    expect([instructions!.cause_kind, instructions!.state]).toEqual(['transferInstructions', 'sent']);
    const [mail] = to(order.buyerEmail);
    expect(mail!.subject).toBe(`Payment for your order ${reference}: ${eventName}`);
    expect(mail!.messageId).toBe(`<transferInstructions.${order.orderId}@tessera.test>`);
    expect(mail!.text).toContain(`Order reference: ${reference}`);
    expect(mail!.text).toContain('Amount due: €250.00');
    expect(mail!.text).toContain('Tickets: 2');
    expect(mail!.text).toContain('IBAN NO93 8601 1117 947 <Fjord Bank>');
    expect(mail!.text).toContain(`quote the order reference ${reference}`);
    expect(mail!.text).toContain('once the organiser has received your payment, your tickets are issued');
    expect(mail!.html).toContain('IBAN NO93 8601 1117 947 &lt;Fjord Bank&gt;');
    expect(mail!.attachments).toEqual([]);
    // No ticket is confirmed before the money is in.
    expect(to(`guest0.${reference}`)).toEqual([]);

    const paid = await t.api(`/events/${eventId}/orders/${order.orderId}/mark-paid`, {
      key,
      method: 'POST',
      body: { method: 'transfer', provider: 'Fjord Bank' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const rows = await settled(t, eventId);
    expect(rows.map((r) => [r.cause_kind, r.state]).sort()).toEqual([
      ['ticketIssued', 'sent'],
      ['ticketIssued', 'sent'],
      ['transferInstructions', 'sent'],
    ]);
    const attendees = await t.server.services.db
      .selectFrom('attendees')
      .select(['email', 'ticket_code'])
      .where('order_id', '=', order.orderId)
      .execute();
    for (const a of attendees) {
      const [ticket] = to(a.email!);
      expect(ticket!.text).toContain(`${t.server.publicOrigin}/t/${a.ticket_code}`);
      expect(ticket!.attachments.map((x) => x.filename)).toEqual(['ticket.ics']);
    }
  });

  it('are not sent for an order that no longer awaits a transfer', async () => {
    const { eventId } = await eventToRegisterFor(t);
    const typeId = await pricedTicketType(t.server.services.db, eventId, 5_000, 0);
    const order = await pendingOrder(t.server.services.db, eventId, typeId, 1, 'cancelled');
    expect(await queueInstructions(eventId, order.orderId)).toBe(false);
    expect(await mailRows(t, eventId)).toEqual([]);
  });

  it('go out for an order taken through the API (and the form, on the same path), with the payment instructions of the sign-up settings', async () => {
    const { key, eventId } = await eventToRegisterFor(t);
    const settings = await t.api(`/events/${eventId}/sign-up`, {
      key,
      method: 'PATCH',
      body: { paymentInstructions: 'Pay to IBAN NO93 8601 1117 947.' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const typeId = await pricedTicketType(t.server.services.db, eventId, 40_000, 25);
    const made = await t.api(`/events/${eventId}/orders`, {
      key,
      method: 'POST',
      body: {
        attendees: [
          { ticketTypeId: typeId, firstName: 'Kari', lastName: 'Nordmann', email: 'kari@example.org' },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rows = await settled(t, eventId);
    expect(rows.map((r) => [r.cause_kind, r.order_id, r.state])).toEqual([
      ['transferInstructions', made.body.orderId, 'sent'],
    ]);
    const [mail] = to('kari@example.org');
    expect(mail!.text).toContain(`Order reference: ${made.body.reference}`);
    expect(mail!.text).toContain('Amount due: €400.00');
    expect(mail!.text).toContain('Pay to IBAN NO93 8601 1117 947.');
  });
});
