// Places: taken counts change only together with their capacity check, in one conditional update,
// so concurrent registrations can never oversell (the row update is the tickets' lock).
import { sql } from 'kysely';
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';

/** Takes n places of a ticket type; false when they are not there. */
export async function takeTicketPlaces(ctx: Ctx, ticketTypeId: string, n: number): Promise<boolean> {
  const result = await ctx.db
    .updateTable('ticket_types')
    .set({
      taken: sql`taken + ${n}`,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', ticketTypeId)
    .where((eb) => eb.or([eb('capacity', 'is', null), eb(sql`taken + ${n}`, '<=', eb.ref('capacity'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function takeAddOnPlaces(ctx: Ctx, addOnId: string, n: number): Promise<boolean> {
  const result = await ctx.db
    .updateTable('add_ons')
    .set({
      taken: sql`taken + ${n}`,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', addOnId)
    .where((eb) => eb.or([eb('capacity', 'is', null), eb(sql`taken + ${n}`, '<=', eb.ref('capacity'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives places back (a cancelled ticket, an order that stopped holding places). */
export async function releasePlaces(ctx: Ctx, ticketTypeId: string, addOnIds: string[]): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable('ticket_types')
    .set({
      taken: sql`case when taken > 0 then taken - 1 else 0 end`,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', ticketTypeId)
    .execute();
  for (const addOnId of addOnIds) {
    await ctx.db
      .updateTable('add_ons')
      .set({
        taken: sql`case when taken > 0 then taken - 1 else 0 end`,
        updated_utc: now,
        change_seq: await nextChangeSeq(ctx.db),
      })
      .where('id', '=', addOnId)
      .execute();
  }
}

/** Places left of a limited capacity; null without a limit. */
export function placesLeft(capacity: number | null, taken: number): number | null {
  return capacity === null ? null : Math.max(0, capacity - taken);
}

/** Places in all the given ticket types; null when any is unlimited (or there are none). */
export function totalCapacity(types: { capacity: number | null }[]): number | null {
  if (types.length === 0 || types.some((t) => t.capacity === null)) return null;
  return types.reduce((n, t) => n + (t.capacity ?? 0), 0);
}
