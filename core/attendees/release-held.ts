// What tickets hold, given back: the uses they took of their order's discount code (those it applied
// to), then their places, ticket types then add-ons in the order of their ids, each freed place
// offered to the type's waiting list first (core/waiting-list/release-places.ts).
// One path for a cancellation, a refund and a card order whose hold ended, in the lock order of
// docs/lock-order.md: the caller has the order's row and the tickets already.
import type { Ctx } from '../platform/context';
import { codeAppliesTo, releaseCodeUses } from '../sales';
import { releasePlacesOf } from '../waiting-list';

export async function releaseWhatTicketsHold(
  ctx: Ctx,
  discountCodeId: string | null,
  attendeeIds: string[],
): Promise<void> {
  if (attendeeIds.length === 0) return;
  const [tickets, addOns] = await Promise.all([
    ctx.db.selectFrom('attendees').select('ticket_type_id').where('id', 'in', attendeeIds).execute(),
    ctx.db
      .selectFrom('attendee_add_ons')
      .select(['add_on_id as addOnId', 'quantity'])
      .where('attendee_id', 'in', attendeeIds)
      .execute(),
  ]);
  const freed = { ticketTypes: new Map<string, number>(), addOns: new Map<string, number>() };
  const add = (counts: Map<string, number>, id: string, n: number) =>
    counts.set(id, (counts.get(id) ?? 0) + n);
  for (const t of tickets) add(freed.ticketTypes, t.ticket_type_id, 1);
  for (const { addOnId, quantity } of addOns) add(freed.addOns, addOnId, quantity);
  if (discountCodeId !== null) await releaseUsesOf(ctx, discountCodeId, freed.ticketTypes);
  await releasePlacesOf(ctx, freed);
}

/** Gives back the uses the tickets took of their order's discount code (those it applied to). */
async function releaseUsesOf(ctx: Ctx, codeId: string, freedTypes: Map<string, number>): Promise<void> {
  const code = await ctx.db
    .selectFrom('discount_codes')
    .selectAll()
    .where('id', '=', codeId)
    .executeTakeFirst();
  if (!code) return;
  let uses = 0;
  for (const [ticketTypeId, n] of freedTypes) if (codeAppliesTo(code, ticketTypeId)) uses += n;
  if (uses > 0) await releaseCodeUses(ctx, codeId, uses);
}
