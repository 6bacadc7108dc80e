// An order as its buyer sees it on the public page it ends on (its id is its key): what is due and
// how to pay it, a card order's checkout while it holds places, the tickets once paid.
import type { Db } from '../../db/connect';
import type { EventRow } from '../../db/schema';
import type { OrderStatus } from '../../db/values';
import { loadSignUp } from '../events';
import { holderName } from '../platform/holder-name';
import { toMajor } from '../platform/money';

export interface PublicOrder {
  reference: string;
  total: number;
  currency: string;
  status: OrderStatus;
  /** The event's payment instructions for a transfer. */
  instructions: string | null;
  /** A card order's Checkout page and how long its places are held; null for other orders. */
  checkout: { paymentUrl: string | null; holdUntil: string } | null;
  /** Its tickets once valid (paid or free). */
  tickets: ShownTicket[];
}

/** The published event at a slug, for its order pages; undefined when none is there. */
export function eventAtSlug(db: Db, slug: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('slug', '=', slug)
    .where('status', '=', 'published')
    .executeTakeFirst();
}

/** An order of the event, for the page it ends on; null when none. */
export async function publicOrder(db: Db, event: EventRow, orderId: string): Promise<PublicOrder | null> {
  if (!/^[0-9a-f-]{36}$/.test(orderId)) return null;
  const row = await db
    .selectFrom('orders')
    .leftJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
    .select([
      'orders.reference',
      'orders.total_minor',
      'orders.currency',
      'orders.status',
      'card_checkouts.session_url',
      'card_checkouts.hold_until_utc',
    ])
    .where('orders.id', '=', orderId)
    .where('orders.event_id', '=', event.id)
    .executeTakeFirst();
  if (!row) return null;
  const valid = row.status === 'paid' || row.status === 'free';
  return {
    reference: row.reference,
    total: toMajor(row.total_minor, row.currency),
    currency: row.currency,
    status: row.status,
    instructions: (await loadSignUp(db, event)).paymentInstructions,
    checkout: row.hold_until_utc ? { paymentUrl: row.session_url, holdUntil: row.hold_until_utc } : null,
    tickets: valid ? await shownTickets(db, { orderId }) : [],
  };
}

/** A ticket as the buyer's pages show it (the registration's end, an order's page). */
export interface ShownTicket {
  holder: string | null;
  erased: boolean;
  ticketType: string;
  code: string;
  cancelled: boolean;
}

/** The tickets of an order, or of an event by their codes, oldest first, as the buyer's pages show them. */
export async function shownTickets(
  db: Db,
  of: { orderId: string } | { eventId: string; codes: string[] },
): Promise<ShownTicket[]> {
  let query = db
    .selectFrom('attendees')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select([
      'attendees.first_name',
      'attendees.last_name',
      'attendees.ticket_code',
      'attendees.status',
      'attendees.erased',
      'ticket_types.name',
    ]);
  query =
    'orderId' in of
      ? query.where('attendees.order_id', '=', of.orderId)
      : query.where('attendees.event_id', '=', of.eventId).where('attendees.ticket_code', 'in', of.codes);
  const rows = await query.orderBy('attendees.change_seq').execute();
  return rows.map((r) => ({
    holder: holderName(r),
    erased: r.erased === 1,
    ticketType: r.name,
    code: r.ticket_code,
    cancelled: r.status !== 'active',
  }));
}
