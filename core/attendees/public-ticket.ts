// What anyone holding a ticket's code sees at its address /t/{code}, without a key: the event, its
// time in the venue's zone, the venue or "Online", the holder's name (gone once erased), the ticket
// type, add-ons and order reference, and whether it admits. The code is the only way in: found
// through its unique index, and every miss (malformed or unknown) answers the same null.
import type { Db } from '../../db/connect';
import { prepare } from '../../db/prepared';
import { ticketCodePattern } from '../../db/ticket-codes';
import { type CalendarTicket, ticketCalendar } from '../events';
import { holderName } from '../platform/holder-name';
import { ticketUrl } from '../platform/ticket-codes';
import { venueTimeRange } from '../platform/time';
import { awaitingPaymentStatuses, isValidTicket } from '../sales';

/** valid: it admits; awaitingPayment: valid once its order is paid; cancelled: it never will. */
export type TicketState = 'valid' | 'awaitingPayment' | 'cancelled';

export interface PublicTicket {
  code: string;
  /** The ticket's whole address, what its QR code holds. */
  address: string;
  state: TicketState;
  event: { name: string; when: string; timeZone: string; venue: string };
  /** The holder's name; null once erased (or never given). */
  holder: string | null;
  erased: boolean;
  ticketType: string;
  addOns: { name: string; quantity: number }[];
  orderReference: string;
}

/** A ticket with its order, type and event, by its code: one row through the code's unique index. */
export function ticketByCodeQuery(db: Db, code: string) {
  return db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .innerJoin('events', 'events.id', 'attendees.event_id')
    .select([
      'attendees.id',
      'attendees.first_name',
      'attendees.last_name',
      'attendees.status',
      'attendees.erased',
      'orders.status as order_status',
      'orders.reference as order_reference',
      'ticket_types.name as ticket_type_name',
      'events.name',
      'events.starts_utc',
      'events.ends_utc',
      'events.time_zone',
      'events.online',
      'events.venue_name',
      'events.venue_address',
      'events.venue_city',
      'events.venue_country',
    ])
    .where('attendees.ticket_code', '=', code);
}

const ticketByCode = prepare<{ code: string }, TicketRow>((db, p) => ticketByCodeQuery(db, p.code));

interface TicketRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  status: string;
  erased: number;
  order_status: string;
  order_reference: string;
  ticket_type_name: string;
  name: string;
  starts_utc: string;
  ends_utc: string;
  time_zone: string;
  online: 0 | 1;
  venue_name: string | null;
  venue_address: string | null;
  venue_city: string | null;
  venue_country: string | null;
}

/** The code of a ticket's address as typed or printed: any case; null when it cannot be one. */
export function ticketCodeOfAddress(text: string): string | null {
  const code = text.toUpperCase();
  return ticketCodePattern.test(code) ? code : null;
}

function stateOf(row: TicketRow): TicketState {
  if (isValidTicket(row.status, row.order_status)) return 'valid';
  if (row.status === 'active' && (awaitingPaymentStatuses as readonly string[]).includes(row.order_status))
    return 'awaitingPayment';
  return 'cancelled';
}

async function findTicket(db: Db, text: string) {
  const code = ticketCodeOfAddress(text);
  if (code === null) return null;
  const row = await ticketByCode.first(db, { code });
  return row ? { code, row } : null;
}

export async function publicTicket(db: Db, origin: string, text: string): Promise<PublicTicket | null> {
  const found = await findTicket(db, text);
  if (!found) return null;
  const { code, row } = found;
  const addOns = await db
    .selectFrom('attendee_add_ons')
    .innerJoin('add_ons', 'add_ons.id', 'attendee_add_ons.add_on_id')
    .select(['add_ons.name', 'attendee_add_ons.quantity'])
    .where('attendee_add_ons.attendee_id', '=', row.id)
    .orderBy('add_ons.sort_order')
    .orderBy('add_ons.name')
    .execute();
  const erased = row.erased === 1;
  return {
    code,
    address: ticketUrl(origin, code),
    state: stateOf(row),
    event: {
      name: row.name,
      when: venueTimeRange(row.starts_utc, row.ends_utc, row.time_zone),
      timeZone: row.time_zone,
      venue: venueOf(row),
    },
    holder: holderName(row),
    erased,
    ticketType: row.ticket_type_name,
    addOns,
    orderReference: row.order_reference,
  };
}

function venueOf(row: TicketRow): string {
  if (row.online === 1) return 'Online';
  return (
    [row.venue_name, row.venue_address, row.venue_city, row.venue_country].filter(Boolean).join(', ') ||
    'Venue to be announced'
  );
}

/** The ticket as a calendar file: its name and .ics text; null where the page would be not found. */
export async function publicTicketCalendar(
  db: Db,
  origin: string,
  text: string,
): Promise<{ fileName: string; ics: string } | null> {
  const found = await findTicket(db, text);
  if (!found) return null;
  const { code, row } = found;
  const ticket: CalendarTicket = {
    attendeeId: row.id,
    ticketTypeName: row.ticket_type_name,
    holderName: holderName(row),
    erased: row.erased === 1,
    state: stateOf(row),
    address: ticketUrl(origin, code),
  };
  const slug = row.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'ticket';
  return { fileName: `${slug}.ics`, ics: ticketCalendar(row, ticket) };
}
