// Places that came free go to the waiting list before the public can take them: while the ticket
// type has places left, the next person in line (join order) is offered one. The offer holds its
// place (taken with the one conditional update that never oversells, core/sales/places.ts) until it
// runs out, and its e-mail is queued in the same transaction. Locks: the type's row (the place),
// then the entry (its offer); a write already holding the type's row (a cancellation, a capacity
// raised) keeps that order (docs/lock-order.md).
import { nextChangeSeq } from '../../db/sequence';
import { offerOrigin, queueWaitingListOffer } from '../mail';
import type { Ctx } from '../platform/context';
import { givePlacesBack, takePlaces } from '../sales';
import { newOfferToken } from './offer-token';

/** How long an offer holds its place when the event sets nothing (event_sign_up.waiting_list_offer_hours). */
export const defaultOfferHours = 48;

/** Offers the type's free places to the people waiting for it, first in line first; answers how many. */
export async function offerWaitingPlaces(ctx: Ctx, ticketTypeId: string): Promise<number> {
  let offered = 0;
  for (;;) {
    const next = await ctx.db
      .selectFrom('waiting_list_entries')
      .select('id')
      .where('ticket_type_id', '=', ticketTypeId)
      .where('status', '=', 'waiting')
      .where('erased', '=', 0)
      .orderBy('position')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return offered;
    const made = await offerPlaceTo(ctx, ticketTypeId, next.id);
    // Taken off the list meanwhile (PostgreSQL): the next is tried.
    if (made === 'gone') continue;
    if (made !== 'offered') return offered;
    offered += 1;
  }
}

/**
 * Offers one waiting entry a place of its type: takes the place (the type's row), then marks the
 * entry offered and queues its e-mail. `full`: no place free; `closed`: the type takes no offers
 * now; `gone`: the entry is no longer waiting (its place, if taken, is given back).
 */
export async function offerPlaceTo(
  ctx: Ctx,
  ticketTypeId: string,
  entryId: string,
): Promise<'offered' | 'full' | 'closed' | 'gone'> {
  const type = await offeringType(ctx, ticketTypeId);
  if (!type) return 'closed';
  if ((await takePlaces(ctx, 'ticket_types', ticketTypeId, 1)) !== 'taken') return 'full';
  const made = await offerTo(ctx, type, entryId);
  if (!made) {
    await givePlacesBack(ctx, { ticketTypes: new Map([[ticketTypeId, 1]]), addOns: new Map() });
    return 'gone';
  }
  if (made.email)
    await queueWaitingListOffer(ctx, type.event_id, {
      entryId,
      recipient: made.email,
      firstName: made.firstName,
      ticketTypeName: type.name,
      address: `${offerOrigin(ctx)}/e/${type.slug}/waiting/${made.token}`,
      expiresUtc: made.expiresUtc,
    });
  return 'offered';
}

type OfferingType = NonNullable<Awaited<ReturnType<typeof offeringType>>>;

/** The type with what an offer needs, when it offers places at all: its list on, on sale, its event not over. */
async function offeringType(ctx: Ctx, ticketTypeId: string) {
  const type = await ctx.db
    .selectFrom('ticket_types')
    .innerJoin('events', 'events.id', 'ticket_types.event_id')
    .leftJoin('event_sign_up', 'event_sign_up.event_id', 'ticket_types.event_id')
    .select([
      'ticket_types.event_id',
      'ticket_types.name',
      'ticket_types.waiting_list',
      'ticket_types.retired_utc',
      'events.slug',
      'events.ends_utc',
      'event_sign_up.waiting_list_offer_hours as hours',
    ])
    .where('ticket_types.id', '=', ticketTypeId)
    .executeTakeFirst();
  const over = type !== undefined && type.ends_utc <= ctx.clock.now().toISOString();
  return type && type.waiting_list === 1 && type.retired_utc === null && !over ? type : null;
}

/** The entry's offer, if it is still waiting: its token (only the e-mail has it) and its end. */
async function offerTo(
  ctx: Ctx,
  type: OfferingType,
  entryId: string,
): Promise<{ token: string; expiresUtc: string; email: string | null; firstName: string | null } | null> {
  const now = ctx.clock.now();
  const expiresUtc = new Date(now.getTime() + (type.hours ?? defaultOfferHours) * 3_600_000).toISOString();
  const { token, hash } = newOfferToken();
  const done = await ctx.db
    .updateTable('waiting_list_entries')
    .set({
      status: 'offered',
      offer_token_hash: hash,
      offered_utc: now.toISOString(),
      offer_expires_utc: expiresUtc,
      updated_utc: now.toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', entryId)
    .where('status', '=', 'waiting')
    .where('erased', '=', 0)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return null;
  const entry = await ctx.db
    .selectFrom('waiting_list_entries')
    .select(['email', 'first_name'])
    .where('id', '=', entryId)
    .executeTakeFirstOrThrow();
  return { token, expiresUtc, email: entry.email, firstName: entry.first_name };
}
