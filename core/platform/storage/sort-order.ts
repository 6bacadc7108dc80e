// A new row of an event's ordered list (ticket types, doors, rooms, ...) goes last unless a place
// is given.
import type { Ctx } from '../context';

type Ordered = 'ticket_types' | 'add_ons' | 'doors' | 'rooms' | 'tracks';

export async function nextSortOrder(ctx: Ctx, table: Ordered, eventId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>('sort_order').as('last'))
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return (row?.last ?? 0) + 1;
}
