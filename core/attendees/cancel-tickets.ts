// The one path that cancels tickets, for a cancellation and a refund alike: each ticket is
// cancelled (only one still active: a conditional update, so two at once cannot both count it),
// its places are given back where its order held them, the order takes `emptied` once no ticket is
// left, attendee.cancelled is sent for each, and a credit note corrects the order's invoice (and
// goes to the buyer by e-mail).
//
// Its locks in one order, so that concurrent writers never wait on each other in a circle: the
// order's row first (two cancellations of one order's tickets take turns; each touches every ticket
// of the order), then the tickets, then the discount code's uses given back, then the places given
// back, ticket types then add-ons, each in the order of their ids, as a registration takes them
// (core/attendees/registration-places.ts), then the freed places offered to the types' waiting
// lists (core/waiting-list).
import { lockingRow } from '../../db/dialect';
import type { EventRow } from '../../db/schema';
import type { OrderStatus } from '../../db/values';
import { creditCancelledTickets } from '../invoicing';
import { queueCancellationNotices, queueDocumentMail } from '../mail';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { holdsPlaces } from '../sales';
import { activeTicketIds } from './active-tickets';
import { attendeeCancelled, emitForAttendees } from './attendee-messages';
import { releaseWhatTicketsHold } from './release-held';
import { touchOrderAndAttendees } from './touch-order';

export async function cancelTickets(
  ctx: Ctx,
  event: EventRow,
  orderId: string,
  attendeeIds: string[],
  emptied: OrderStatus,
): Promise<{ creditNoteId: string | null }> {
  const order = await lockingRow(
    ctx.db,
    ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId),
  ).executeTakeFirstOrThrow();
  const now = ctx.clock.now().toISOString();
  for (const attendeeId of [...attendeeIds].sort()) {
    const done = await ctx.db
      .updateTable('attendees')
      .set({ status: 'cancelled', cancelled_utc: now })
      .where('id', '=', attendeeId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1)
      throw problem('alreadyCancelled', `The ticket ${attendeeId} is already cancelled.`);
  }
  if (holdsPlaces(order.status)) await releaseWhatTicketsHold(ctx, order.discount_code_id, attendeeIds);
  const stillActive = await ctx.db
    .selectFrom('attendees')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  await touchOrderAndAttendees(ctx, orderId, stillActive ? {} : { status: emptied });
  await emitForAttendees(ctx, attendeeCancelled, event, attendeeIds);
  await queueCancellationNotices(ctx, event.id, attendeeIds);
  if (order.status !== 'paid') return { creditNoteId: null };
  const creditNoteId = await creditCancelledTickets(ctx, event, order, attendeeIds);
  if (creditNoteId) await queueDocumentMail(ctx, event.id, creditNoteId);
  return { creditNoteId };
}

/** Cancels every ticket of the order still active (a decline, a refund of all that is left). */
export async function cancelOrderTickets(
  ctx: Ctx,
  event: EventRow,
  orderId: string,
  emptied: OrderStatus,
): Promise<{ creditNoteId: string | null }> {
  return cancelTickets(ctx, event, orderId, await activeTicketIds(ctx, orderId), emptied);
}
