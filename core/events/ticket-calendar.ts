// A ticket as a calendar entry (.ics), for its page and the confirmation e-mail: the event's time
// in UTC (calendars show it in the reader's zone), the venue, and the ticket's address. Written by
// the `ics` package, which escapes and folds the text as RFC 5545 asks.
import { createEvent } from 'ics';
import type { EventRow } from '../../db/schema';
import { holderWords } from '../platform/holder-name';
import { oneLineOf } from '../platform/shown-text';

export interface CalendarTicket {
  attendeeId: string;
  ticketTypeName: string;
  /** The holder's name (holder-name.ts); null once erased or never given. */
  holderName: string | null;
  erased: boolean;
  /** A cancelled ticket's entry says so; one awaiting payment is tentative until it is paid. */
  state: 'valid' | 'awaitingPayment' | 'cancelled';
  /** The ticket's page, /t/{code} on this service's public address. */
  address: string;
}

type CalendarEvent = Pick<
  EventRow,
  | 'name'
  | 'starts_utc'
  | 'ends_utc'
  | 'online'
  | 'venue_name'
  | 'venue_address'
  | 'venue_city'
  | 'venue_country'
>;

const calendarStatus = { valid: 'CONFIRMED', awaitingPayment: 'TENTATIVE', cancelled: 'CANCELLED' } as const;

export function ticketCalendar(event: CalendarEvent, ticket: CalendarTicket): string {
  // One line each (issue 50): the ics package escapes LF but not a lone CR or other controls.
  const venue = [event.venue_name, event.venue_address, event.venue_city, event.venue_country]
    .filter((part): part is string => Boolean(part))
    .map(oneLineOf);
  const { error, value } = createEvent({
    productId: 'tessera/ticket',
    // One entry per ticket: a calendar that imports it again replaces it rather than doubling it.
    uid: `${ticket.attendeeId}@tessera`,
    title: oneLineOf(event.name),
    start: Date.parse(event.starts_utc),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: Date.parse(event.ends_utc),
    endInputType: 'utc',
    endOutputType: 'utc',
    location: event.online === 1 ? 'Online' : venue.join(', ') || undefined,
    url: ticket.address,
    description: [
      `Ticket: ${oneLineOf(ticket.ticketTypeName)}`,
      `For: ${oneLineOf(holderWords(ticket.holderName, ticket.erased))}`,
      `Your ticket and its QR code: ${ticket.address}`,
    ].join('\n'),
    status: calendarStatus[ticket.state],
  });
  if (error || !value) throw error ?? new Error('The calendar entry was not made.');
  return value;
}
