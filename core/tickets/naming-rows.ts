// Setup rows that name a ticket type or an add-on in their JSON lists (a door's admitted types, a
// discount code's types, a question's types, a ticket type's bundled add-ons). An empty list means
// "all", so a removed id cannot simply be dropped from one: that would widen it.
import { sql } from 'kysely';
import type { Ctx } from '../platform/context';
import { type Dependent, dependentsOf } from '../platform/in-use';

async function naming(
  ctx: Ctx,
  eventId: string,
  table: 'doors' | 'discount_codes' | 'questions' | 'ticket_types',
  column: 'ticket_type_ids' | 'add_on_ids' | 'included_add_on_ids',
  id: string,
) {
  // The list column by its name (each of these tables' list columns is JSON text, never null).
  const rows = await ctx.db
    .selectFrom(table)
    .select(['id', sql.ref<string>(column).as('list')])
    .where('event_id', '=', eventId)
    .execute();
  return rows.filter((r) => (JSON.parse(r.list) as string[]).includes(id)).map((r) => r.id);
}

/** Doors, discount codes and questions limited to this ticket type. */
export async function rowsNamingTicketType(ctx: Ctx, eventId: string, id: string): Promise<Dependent[]> {
  return [
    dependentsOf('door', await naming(ctx, eventId, 'doors', 'ticket_type_ids', id)),
    dependentsOf('discountCode', await naming(ctx, eventId, 'discount_codes', 'ticket_type_ids', id)),
    dependentsOf('question', await naming(ctx, eventId, 'questions', 'ticket_type_ids', id)),
  ];
}

/** Doors requiring this add-on and ticket types bundling it. */
export async function rowsNamingAddOn(ctx: Ctx, eventId: string, id: string): Promise<Dependent[]> {
  return [
    dependentsOf('door', await naming(ctx, eventId, 'doors', 'add_on_ids', id)),
    dependentsOf('ticketType', await naming(ctx, eventId, 'ticket_types', 'included_add_on_ids', id)),
  ];
}
