// The e-mails queued by live changes to tickets and orders, in the transaction of the change:
// a ticket issued (free registration, an order marked paid), a ticket cancelled, an order awaiting
// a bank transfer. Imports and the sample data never call these: they send nothing.
import { nextChangeSeq } from '../../db/sequence';
import { ticketCalendar } from '../events';
import type { Ctx } from '../platform/context';
import { holderName } from '../platform/holder-name';
import { problem } from '../platform/problems';
import { ticketUrl } from '../platform/ticket-codes';
import { isValidTicket } from '../sales';
import { eventMailRefusal, mailRefusal } from './mail-policy';
import {
  cancellationMail,
  confirmationMail,
  type MailEvent,
  type TicketFacts,
  transferInstructionsMail,
} from './mail-templates';
import { queueMail } from './queue-mail';

/** The event as the messages show it, when e-mail may go out for it; null otherwise. */
export async function mailableEvent(ctx: Ctx, eventId: string): Promise<MailEvent | null> {
  const { mail, mailRefused } = ctx.services;
  // E-mail off: not even the event is read (registration's hot path).
  if (!mail && mailRefused === undefined) return null;
  const event = await ctx.db
    .selectFrom('events')
    .select([
      'id',
      'workspace_id',
      'name',
      'starts_utc',
      'ends_utc',
      'time_zone',
      'online',
      'venue_name',
      'venue_address',
      'venue_city',
      'venue_country',
    ])
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) return null;
  // An operator command that does not know whether the service sends e-mail asks the rest.
  const refusal = mail ? await mailRefusal(ctx.db, mail, event) : await eventMailRefusal(ctx.db, event);
  return refusal === null ? event : null;
}

/**
 * The sender of a message about to be queued. An operator command without the service's e-mail
 * settings or public URL is refused here, in the change's transaction, rather than queue nothing
 * or a link to localhost.
 */
export function sender(ctx: Ctx): string {
  const { mail, mailRefused } = ctx.services;
  if (mailRefused !== undefined || !mail?.publicOrigin)
    throw problem('emailNotSent', mailRefused ?? 'No public URL is set for the links e-mail carries.');
  return mail.from;
}

const ticketAddress = (ctx: Ctx, code: string) =>
  ticketUrl(ctx.services.mail?.publicOrigin ?? ctx.request.origin, code);

/** The tickets with what their messages say; an erased person's (no address left) are left out. */
async function ticketsOf(ctx: Ctx, attendeeIds: readonly string[]) {
  if (attendeeIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select([
      'attendees.id',
      'attendees.order_id',
      'attendees.first_name',
      'attendees.last_name',
      'attendees.email',
      'attendees.ticket_code',
      'attendees.status',
      'orders.reference',
      'orders.status as order_status',
      'ticket_types.name as ticket_type_name',
    ])
    .where('attendees.id', 'in', [...attendeeIds])
    .where('attendees.erased', '=', 0)
    .where('attendees.email', 'is not', null)
    .orderBy('attendees.id')
    .execute();
  return rows.map((r) => ({
    row: r,
    facts: {
      firstName: r.first_name,
      ticketTypeName: r.ticket_type_name,
      orderReference: r.reference,
      address: ticketAddress(ctx, r.ticket_code ?? ''),
    } satisfies TicketFacts,
  }));
}

/**
 * The confirmation of each ticket, with its link and calendar entry: once per ticket when issued
 * (cause ticketIssued, the attendee id), or again when an organiser resends it (ticketResent,
 * `resendId`). Answers how many were queued.
 */
export async function queueTicketConfirmations(
  ctx: Ctx,
  eventId: string,
  attendeeIds: readonly string[],
  resendId?: string,
): Promise<number> {
  const event = await mailableEvent(ctx, eventId);
  if (!event) return 0;
  let queued = 0;
  for (const { row, facts } of await ticketsOf(ctx, attendeeIds)) {
    if (!isValidTicket(row.status, row.order_status) || !row.ticket_code) continue;
    const calendar = ticketCalendar(event, {
      attendeeId: row.id,
      ticketTypeName: facts.ticketTypeName,
      holderName: holderName({ ...row, erased: false }),
      erased: false,
      state: 'valid',
      address: facts.address,
    });
    const made = await queueMail(ctx, sender(ctx), {
      event,
      causeKind: resendId ? 'ticketResent' : 'ticketIssued',
      causeId: resendId ?? row.id,
      attendeeId: row.id,
      orderId: row.order_id,
      recipient: row.email!,
      content: confirmationMail(event, facts, calendar, resendId !== undefined),
    });
    if (made) queued += 1;
  }
  return queued;
}

/**
 * The notice of each cancelled ticket whose confirmation went out (or is going out now). A
 * confirmation still queued is cancelled instead: the person never hears of the ticket at all.
 */
export async function queueCancellationNotices(
  ctx: Ctx,
  eventId: string,
  attendeeIds: readonly string[],
): Promise<number> {
  if (attendeeIds.length === 0) return 0;
  const waiting = await ctx.db
    .selectFrom('mail_messages')
    .select('id')
    .where('attendee_id', 'in', [...attendeeIds])
    .where('cause_kind', 'in', ['ticketIssued', 'ticketResent'])
    .where('state', '=', 'queued')
    .execute();
  // One change position per row: lists page by it.
  for (const { id } of waiting)
    await ctx.db
      .updateTable('mail_messages')
      .set({
        state: 'cancelled',
        next_attempt_utc: null,
        last_error: 'The ticket was cancelled before this went out.',
        updated_utc: ctx.clock.now().toISOString(),
        change_seq: await nextChangeSeq(ctx.db),
      })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  const event = await mailableEvent(ctx, eventId);
  if (!event) return 0;
  const confirmed = new Set(
    (
      await ctx.db
        .selectFrom('mail_messages')
        .select('attendee_id')
        .where('attendee_id', 'in', [...attendeeIds])
        .where('cause_kind', 'in', ['ticketIssued', 'ticketResent'])
        .where('state', 'in', ['sent', 'sending'])
        .execute()
    ).map((m) => m.attendee_id),
  );
  let queued = 0;
  for (const { row, facts } of await ticketsOf(ctx, attendeeIds)) {
    if (!confirmed.has(row.id)) continue;
    const made = await queueMail(ctx, sender(ctx), {
      event,
      causeKind: 'ticketCancelled',
      causeId: row.id,
      attendeeId: row.id,
      orderId: row.order_id,
      recipient: row.email!,
      content: cancellationMail(event, facts),
    });
    if (made) queued += 1;
  }
  return queued;
}

/**
 * The bank-transfer instructions of an order awaiting payment, to its buyer: the reference to
 * quote, the amount due and the event's payment instructions. Answers whether one was queued.
 */
export async function queueTransferInstructions(
  ctx: Ctx,
  eventId: string,
  orderId: string,
): Promise<boolean> {
  const event = await mailableEvent(ctx, eventId);
  if (!event) return false;
  const order = await ctx.db
    .selectFrom('orders')
    .select(['id', 'reference', 'buyer_name', 'buyer_email', 'total_minor', 'currency', 'status', 'erased'])
    .where('id', '=', orderId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (
    !order ||
    order.erased === 1 ||
    !order.buyer_email ||
    (order.status !== 'transfer' && order.status !== 'pending')
  )
    return false;
  const [tickets, signUp, card] = await Promise.all([
    ctx.db
      .selectFrom('attendees')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('order_id', '=', orderId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('event_sign_up')
      .select('payment_instructions')
      .where('event_id', '=', eventId)
      .executeTakeFirst(),
    // A card order (an approved request paid by card) is paid on its public page, which opens Checkout.
    ctx.db
      .selectFrom('card_checkouts')
      .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
      .innerJoin('events', 'events.id', 'orders.event_id')
      .select('events.slug')
      .where('card_checkouts.order_id', '=', orderId)
      .executeTakeFirst(),
  ]);
  return queueMail(ctx, sender(ctx), {
    event,
    causeKind: 'transferInstructions',
    causeId: order.id,
    attendeeId: null,
    orderId: order.id,
    recipient: order.buyer_email,
    content: transferInstructionsMail(event, {
      buyerName: order.buyer_name,
      reference: order.reference,
      totalMinor: order.total_minor,
      currency: order.currency,
      tickets: Number(tickets.n),
      instructions: signUp?.payment_instructions ?? null,
      ...(card && order.status === 'pending'
        ? {
            payByCardAt: `${ctx.services.mail?.publicOrigin ?? ctx.request.origin}/e/${card.slug}/orders/${order.id}`,
          }
        : {}),
    }),
  });
}
