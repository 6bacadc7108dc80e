// A registration taking up a waiting-list offer (ctx.waitingOffer, set only by the offer's page): the
// offer already holds one place of its type (core/waiting-list), so that place is neither counted
// against the type's capacity nor taken again; the offer is marked taken up, with the order, in the
// same transaction, or the registration is refused when the offer ended meanwhile.
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import type { WantedPlaces } from './wanted-places';

const offerEnded = (ticketTypeId: string) =>
  problem('registrationRefused', 'This offer of a place from the waiting list has ended.', {
    reason: 'waitingOfferEnded',
    ticketTypeId,
  });

/** The places to take, less the one the offer holds: an offer is for one ticket of its type. */
export function lessHeldPlace(
  ctx: Ctx,
  people: readonly { ticketTypeId?: string }[],
  wanted: WantedPlaces,
): WantedPlaces {
  const held = ctx.waitingOffer;
  if (!held) return wanted;
  if (people.length !== 1 || people[0]!.ticketTypeId !== held.ticketTypeId)
    throw offerEnded(held.ticketTypeId);
  return { ...wanted, ticketTypes: wanted.ticketTypes.filter(([id]) => id !== held.ticketTypeId) };
}

/** Marks the offer taken up by the order (its entry's row: after the order's, before any place). */
export async function takeUpHeldPlace(ctx: Ctx, orderId: string): Promise<void> {
  const held = ctx.waitingOffer;
  if (!held) return;
  const now = ctx.clock.now().toISOString();
  const done = await ctx.db
    .updateTable('waiting_list_entries')
    .set({ status: 'accepted', order_id: orderId, updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
    .where('id', '=', held.entryId)
    .where('ticket_type_id', '=', held.ticketTypeId)
    .where('status', '=', 'offered')
    .where('offer_expires_utc', '>', now)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw offerEnded(held.ticketTypeId);
}
