// Orders awaiting payment, written straight into a database (the API sells free tickets only):
// a priced ticket type, and orders of it in a status that waits for the money, holding their places.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { newId } from '../../core/platform/ids';
import { newTicketCode } from '../../core/platform/ticket-codes';
import type { Db } from '../../db/connect';
import { nextChangeSeq } from '../../db/sequence';
import type { OrderStatus } from '../../db/values';
import { insertTicketType } from './sales';

/** A ticket type priced `priceMinor` with `vatRate` percent VAT. */
export async function pricedTicketType(db: Db, eventId: string, priceMinor: number, vatRate: number) {
  const id = await insertTicketType(db, eventId, { priceMinor, name: 'Conference pass' });
  await db.updateTable('ticket_types').set({ vat_rate: vatRate }).where('id', '=', id).execute();
  return id;
}

/** An order of `tickets` tickets of the type, awaiting payment; answers its id and its attendees'. */
export async function pendingOrder(
  db: Db,
  eventId: string,
  ticketTypeId: string,
  tickets = 1,
  status: OrderStatus = 'transfer',
): Promise<{ orderId: string; attendeeIds: string[]; buyerEmail: string }> {
  const event = await db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const type = await db
    .selectFrom('ticket_types')
    .selectAll()
    .where('id', '=', ticketTypeId)
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const orderId = newId();
  const tag = randomUUID().slice(0, 8);
  const total = type.price_minor * tickets;
  const buyerEmail = `buyer.${tag}@example.org`;
  await db
    .insertInto('orders')
    .values({
      id: orderId,
      workspace_id: event.workspace_id,
      event_id: eventId,
      reference: tag.slice(0, 6).toUpperCase(),
      status,
      buyer_name: `Buyer ${tag}`,
      buyer_email: buyerEmail,
      buyer_company: 'Buyer AS',
      language: 'en',
      total_minor: total,
      vat_minor: Math.round((total * type.vat_rate) / (100 + type.vat_rate)),
      currency: event.currency,
      payment_provider: null,
      payment_method: null,
      payment_reference: null,
      paid_utc: null,
      source: 'registration',
      discount_code_id: null,
      erased: 0,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(db),
    })
    .execute();
  const attendeeIds: string[] = [];
  for (let i = 0; i < tickets; i++) {
    const id = newId();
    attendeeIds.push(id);
    await db
      .insertInto('attendees')
      .values({
        id,
        workspace_id: event.workspace_id,
        event_id: eventId,
        order_id: orderId,
        ticket_type_id: ticketTypeId,
        first_name: `Guest${i}`,
        last_name: tag,
        email: `guest${i}.${tag}@example.org`,
        company: null,
        job_title: null,
        language: 'en',
        answers: null,
        status: 'active',
        checked_in_utc: null,
        cancelled_utc: null,
        erased: 0,
        ticket_code: newTicketCode(),
        created_utc: now,
        updated_utc: now,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
  }
  await db
    .updateTable('ticket_types')
    .set({ taken: sql`taken + ${tickets}` })
    .where('id', '=', ticketTypeId)
    .execute();
  return { orderId, attendeeIds, buyerEmail };
}
