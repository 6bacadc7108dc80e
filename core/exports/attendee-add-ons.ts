// The attendee export carries each ticket's add-ons (the list of the API does not), so the file
// answers "who bought dinner" without a second export: id, name and quantity, in the event's order.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { int32, text, uuid } from '../platform/schemas';

export const exportedAddOnsSchema = v.pipe(
  v.array(
    v.object({
      addOnId: uuid('The add-on.'),
      name: text('Its name.'),
      quantity: int32('How many the ticket holds.'),
    }),
  ),
  v.description("The ticket's add-ons (bought with it or included by its type); none: an empty list."),
);

type Row = Record<string, unknown>;

/** The rows with their add-ons, read for the page's tickets at once. */
export async function withAddOns(ctx: Ctx, items: unknown[]): Promise<unknown[]> {
  const ids = items.map((item) => String((item as Row).attendeeId));
  if (ids.length === 0) return items;
  const held = await ctx.db
    .selectFrom('attendee_add_ons')
    .innerJoin('add_ons', 'add_ons.id', 'attendee_add_ons.add_on_id')
    .select(['attendee_add_ons.attendee_id', 'add_ons.id', 'add_ons.name', 'attendee_add_ons.quantity'])
    .where('attendee_add_ons.attendee_id', 'in', ids)
    .orderBy('add_ons.sort_order')
    .orderBy('add_ons.id')
    .execute();
  const byTicket = new Map<string, { addOnId: string; name: string; quantity: number }[]>();
  for (const a of held) {
    const list = byTicket.get(a.attendee_id) ?? [];
    list.push({ addOnId: a.id, name: a.name, quantity: Number(a.quantity) });
    byTicket.set(a.attendee_id, list);
  }
  return items.map((item) => ({
    ...(item as Row),
    addOns: byTicket.get(String((item as Row).attendeeId)) ?? [],
  }));
}
