// What each e-mail says, in English, as plain text and HTML (mail-layout.ts): the confirmation of a
// ticket (with its link and calendar entry), the notice of its cancellation, and the bank-transfer
// instructions of an order awaiting payment.
import type { EventRow } from '../../db/schema';
import { toMajor } from '../platform/money';
import { multiLineOf, oneLineOf, oneLineOrNull } from '../platform/shown-text';
import { venueTimeRange } from '../platform/time';
import { type MailBlock, mailHtml, mailText } from './mail-layout';
import type { MailAttachment, MailContent } from './queue-mail';

export type MailEvent = Pick<
  EventRow,
  | 'id'
  | 'workspace_id'
  | 'name'
  | 'starts_utc'
  | 'ends_utc'
  | 'time_zone'
  | 'online'
  | 'venue_name'
  | 'venue_address'
  | 'venue_city'
  | 'venue_country'
>;

export interface TicketFacts {
  firstName: string | null;
  ticketTypeName: string;
  orderReference: string;
  /** The ticket's page, /t/{code}. */
  address: string;
}

/**
 * The event's own words as a message shows them: one line each (issue 50), so a name stored with a
 * line break cannot put a line of its own into the subject or the body.
 */
export const shownEvent = (event: MailEvent): MailEvent => ({
  ...event,
  name: oneLineOf(event.name),
  venue_name: oneLineOrNull(event.venue_name),
  venue_address: oneLineOrNull(event.venue_address),
  venue_city: oneLineOrNull(event.venue_city),
  venue_country: oneLineOrNull(event.venue_country),
});

const shownTicket = (ticket: TicketFacts): TicketFacts => ({
  ...ticket,
  firstName: oneLineOrNull(ticket.firstName),
  ticketTypeName: oneLineOf(ticket.ticketTypeName),
});

export const when = (event: MailEvent) =>
  `${venueTimeRange(event.starts_utc, event.ends_utc, event.time_zone)} (${event.time_zone})`;

const where = (event: MailEvent) =>
  event.online === 1
    ? 'Online'
    : [event.venue_name, event.venue_address, event.venue_city, event.venue_country]
        .filter(Boolean)
        .join(', ') || 'To be announced';

export const hello = (firstName: string | null): MailBlock => ({
  kind: 'paragraph',
  text: firstName ? `Hello ${firstName},` : 'Hello,',
});

export function content(
  subject: string,
  blocks: MailBlock[],
  attachments: MailAttachment[] = [],
): MailContent {
  return { subject, text: mailText(blocks), html: mailHtml(subject, blocks), attachments };
}

export function confirmationMail(
  stored: MailEvent,
  storedTicket: TicketFacts,
  calendar: string,
  resent: boolean,
): MailContent {
  const event = shownEvent(stored);
  const ticket = shownTicket(storedTicket);
  return content(
    `Your ticket for ${event.name}`,
    [
      hello(ticket.firstName),
      {
        kind: 'paragraph',
        text: resent
          ? `Here is your ticket for ${event.name} again.`
          : `Your ticket for ${event.name} is confirmed.`,
      },
      { kind: 'link', label: 'Your ticket and its QR code', url: ticket.address },
      {
        kind: 'facts',
        rows: [
          ['Event', event.name],
          ['When', when(event)],
          ['Where', where(event)],
          ['Ticket', ticket.ticketTypeName],
          ['Order reference', ticket.orderReference],
        ],
      },
      {
        kind: 'paragraph',
        text: 'Show the QR code on your ticket page at the door, on your phone or printed. The attached calendar entry (ticket.ics) adds the event to your calendar.',
      },
    ],
    [
      {
        filename: 'ticket.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: calendar,
      },
    ],
  );
}

export function cancellationMail(stored: MailEvent, storedTicket: TicketFacts): MailContent {
  const event = shownEvent(stored);
  const ticket = shownTicket(storedTicket);
  return content(`Your ticket for ${event.name} is cancelled`, [
    hello(ticket.firstName),
    {
      kind: 'paragraph',
      text: `Your ticket for ${event.name} has been cancelled: it no longer admits you to the event.`,
    },
    {
      kind: 'facts',
      rows: [
        ['Event', event.name],
        ['When', when(event)],
        ['Ticket', ticket.ticketTypeName],
        ['Order reference', ticket.orderReference],
      ],
    },
    {
      kind: 'paragraph',
      text: 'If you did not expect this, please contact the organiser of the event, quoting the order reference.',
    },
  ]);
}

export interface TransferFacts {
  buyerName: string | null;
  reference: string;
  totalMinor: number;
  currency: string;
  tickets: number;
  instructions: string | null;
  /** A card order's page, where the buyer pays by card (an approved request paid by card); else absent. */
  payByCardAt?: string;
}

export function transferInstructionsMail(stored: MailEvent, storedOrder: TransferFacts): MailContent {
  const event = shownEvent(stored);
  const order = {
    ...storedOrder,
    buyerName: oneLineOrNull(storedOrder.buyerName),
    instructions: storedOrder.instructions === null ? null : multiLineOf(storedOrder.instructions),
  };
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).format(
    toMajor(order.totalMinor, order.currency),
  );
  if (order.payByCardAt) return payByCardMail(event, order, amount, order.payByCardAt);
  return content(`Payment for your order ${order.reference}: ${event.name}`, [
    hello(order.buyerName),
    {
      kind: 'paragraph',
      text: `Thank you for your order for ${event.name}. It is waiting for your payment by bank transfer.`,
    },
    amountDueFacts(event, order, amount),
    {
      kind: 'paragraph',
      text: order.instructions
        ? `How to pay:\n${order.instructions}`
        : 'The organiser will tell you how to pay.',
    },
    {
      kind: 'paragraph',
      text: `Please quote the order reference ${order.reference} with your payment.`,
    },
    {
      kind: 'paragraph',
      text: 'What happens next: once the organiser has received your payment, your tickets are issued, and each ticket is e-mailed with its link, its QR code and a calendar entry.',
    },
  ]);
}

/** What an order awaiting its payment comes to, as both ways of asking for it say. */
function amountDueFacts(event: MailEvent, order: TransferFacts, amount: string): MailBlock {
  return {
    kind: 'facts',
    rows: [
      ['Order reference', order.reference],
      ['Amount due', amount],
      ['Tickets', String(order.tickets)],
      ['Event', event.name],
      ['When', when(event)],
    ],
  };
}

/** The payment of a card order asked for by e-mail (an approved request): the link to pay on its page. */
function payByCardMail(event: MailEvent, order: TransferFacts, amount: string, payAt: string): MailContent {
  return content(`Payment for your order ${order.reference}: ${event.name}`, [
    hello(oneLineOrNull(order.buyerName)),
    {
      kind: 'paragraph',
      text: `Your order for ${event.name} is confirmed by the organiser. It is waiting for your payment by card.`,
    },
    { kind: 'link', label: 'Pay by card', url: payAt },
    amountDueFacts(event, order, amount),
    {
      kind: 'paragraph',
      text: 'Your places are held for a limited time; once paid, your tickets are issued and each is e-mailed with its link, its QR code and a calendar entry.',
    },
  ]);
}
