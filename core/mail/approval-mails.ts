// The e-mails of an order that waits for the organiser's approval, to its buyer, queued in the
// transaction of the change: the request received (nothing to pay yet, what happens next), and the
// request declined (kindly, with the organiser's reason when they gave one). An approved order's
// messages are those it would have had at once: the transfer instructions, or the tickets.
import type { MailCauseKind } from '../../db/values';
import type { Ctx } from '../platform/context';
import { multiLineOf, oneLineOf, oneLineOrNull } from '../platform/shown-text';
import { content, hello, type MailEvent, shownEvent, when } from './mail-templates';
import type { MailContent } from './queue-mail';
import { queueMail } from './queue-mail';
import { mailableEvent, sender } from './ticket-mails';

interface RequestFacts {
  buyerName: string | null;
  reference: string;
  tickets: { ticketTypeName: string; n: number }[];
  declineReason: string | null;
}

/** "we received your request": queued when a requested order is made. */
export function queueRequestReceived(ctx: Ctx, eventId: string, orderId: string): Promise<boolean> {
  return queueOrderMail(ctx, eventId, orderId, 'requestReceived', requestReceivedMail);
}

/** "your request was declined": queued when the organiser declines it. */
export function queueRequestDeclined(ctx: Ctx, eventId: string, orderId: string): Promise<boolean> {
  return queueOrderMail(ctx, eventId, orderId, 'requestDeclined', requestDeclinedMail);
}

async function queueOrderMail(
  ctx: Ctx,
  eventId: string,
  orderId: string,
  causeKind: MailCauseKind,
  write: (event: MailEvent, facts: RequestFacts) => MailContent,
): Promise<boolean> {
  const event = await mailableEvent(ctx, eventId);
  if (!event) return false;
  const order = await ctx.db
    .selectFrom('orders')
    .select(['id', 'reference', 'buyer_name', 'buyer_email', 'decline_reason', 'erased'])
    .where('id', '=', orderId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!order || order.erased === 1 || !order.buyer_email) return false;
  // Every ticket the request asked for (a declined one's are cancelled by now).
  const tickets = await ctx.db
    .selectFrom('attendees')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select(['ticket_types.name', ({ fn }) => fn.countAll<number>().as('n')])
    .where('attendees.order_id', '=', orderId)
    .groupBy(['ticket_types.id', 'ticket_types.name', 'ticket_types.sort_order'])
    .orderBy('ticket_types.sort_order')
    .orderBy('ticket_types.id')
    .execute();
  return queueMail(ctx, sender(ctx), {
    event,
    causeKind,
    causeId: order.id,
    attendeeId: null,
    orderId: order.id,
    recipient: order.buyer_email,
    content: write(event, {
      buyerName: order.buyer_name,
      reference: order.reference,
      tickets: tickets.map((t) => ({ ticketTypeName: t.name, n: Number(t.n) })),
      declineReason: order.decline_reason,
    }),
  });
}

const ticketsSaid = (facts: RequestFacts) =>
  facts.tickets.map((t) => `${t.n} × ${oneLineOf(t.ticketTypeName)}`).join('\n');

export function requestReceivedMail(stored: MailEvent, facts: RequestFacts): MailContent {
  const event = shownEvent(stored);
  return content(`We received your request: ${event.name}`, [
    hello(oneLineOrNull(facts.buyerName)),
    {
      kind: 'paragraph',
      text: `Thank you for your request for ${event.name}. These tickets need the organiser's approval, so your places are held while they look at it.`,
    },
    {
      kind: 'facts',
      rows: [
        ['Request reference', facts.reference],
        ['Tickets', ticketsSaid(facts)],
        ['Event', event.name],
        ['When', when(event)],
      ],
    },
    {
      kind: 'paragraph',
      text: 'There is nothing to pay yet. What happens next: once the organiser approves your request you will hear from us by e-mail, with your tickets, or with how to pay when they have a price. Should they decline it, we will let you know as well.',
    },
  ]);
}

export function requestDeclinedMail(stored: MailEvent, facts: RequestFacts): MailContent {
  const event = shownEvent(stored);
  const reason = facts.declineReason === null ? null : multiLineOf(facts.declineReason);
  return content(`About your request for ${event.name}`, [
    hello(oneLineOrNull(facts.buyerName)),
    {
      kind: 'paragraph',
      text: `Thank you for your interest in ${event.name}. We are sorry: the organiser could not approve your request this time, so no tickets were issued and nothing is owed.`,
    },
    ...(reason ? [{ kind: 'paragraph' as const, text: `The organiser's note:\n${reason}` }] : []),
    {
      kind: 'facts',
      rows: [
        ['Request reference', facts.reference],
        ['Tickets asked for', ticketsSaid(facts)],
        ['Event', event.name],
      ],
    },
    {
      kind: 'paragraph',
      text: `If you have a question, please contact the organiser of the event, quoting the reference ${facts.reference}.`,
    },
  ]);
}
