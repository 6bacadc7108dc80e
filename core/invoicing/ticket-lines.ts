// The lines a document bills for some tickets of an order: one per ticket type and price sold at
// (a ticket a discount code took something off is billed at its price as sold, on a line naming the
// code), then one per add-on (an add-on bundled with its ticket type is priced 0). A ticket sold
// before its price was kept on it (migration 0046) is billed at its type's price.
import type { Ctx } from '../platform/context';
import type { DocumentLine } from './write-document';

export async function ticketLines(ctx: Ctx, attendeeIds: string[]): Promise<DocumentLine[]> {
  if (attendeeIds.length === 0) return [];
  const tickets = await ctx.db
    .selectFrom('attendees')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .leftJoin('discount_codes', 'discount_codes.id', 'orders.discount_code_id')
    .select([
      'attendees.id',
      'attendees.price_minor as sold_minor',
      'discount_codes.code as discount_code',
      'ticket_types.id as typeId',
      'ticket_types.name',
      'ticket_types.price_minor',
      'ticket_types.vat_rate',
      'ticket_types.sort_order',
      'ticket_types.included_add_on_ids',
    ])
    .where('attendees.id', 'in', attendeeIds)
    .orderBy('ticket_types.sort_order')
    .orderBy('ticket_types.id')
    .execute();
  const addOns = await ctx.db
    .selectFrom('attendee_add_ons')
    .innerJoin('add_ons', 'add_ons.id', 'attendee_add_ons.add_on_id')
    .innerJoin('attendees', 'attendees.id', 'attendee_add_ons.attendee_id')
    .select([
      'attendees.ticket_type_id as typeId',
      'attendee_add_ons.attendee_id',
      'attendee_add_ons.quantity',
      'add_ons.id',
      'add_ons.name',
      'add_ons.price_minor',
      'add_ons.vat_rate',
    ])
    .where('attendee_add_ons.attendee_id', 'in', attendeeIds)
    .orderBy('add_ons.sort_order')
    .orderBy('add_ons.id')
    .execute();
  const bundled = new Map(tickets.map((t) => [t.typeId, JSON.parse(t.included_add_on_ids) as string[]]));
  const lines = new Map<string, DocumentLine>();
  const add = (key: string, line: DocumentLine) => {
    const known = lines.get(key);
    if (known) known.quantity += line.quantity;
    else lines.set(key, line);
  };
  for (const t of tickets) {
    const sold = t.sold_minor ?? t.price_minor;
    const discounted = sold !== t.price_minor && t.discount_code !== null;
    add(`type/${t.typeId}/${sold}`, {
      ticketTypeId: t.typeId,
      addOnId: null,
      name: discounted ? `${t.name} (${t.discount_code})` : t.name,
      quantity: 1,
      unitPriceMinor: sold,
      vatRate: t.vat_rate,
    });
  }
  for (const a of addOns) {
    const included = bundled.get(a.typeId)?.includes(a.id) ?? false;
    add(`addon/${a.typeId}/${a.id}/${included}`, {
      ticketTypeId: a.typeId,
      addOnId: a.id,
      name: a.name,
      quantity: a.quantity,
      unitPriceMinor: included ? 0 : a.price_minor,
      vatRate: a.vat_rate,
    });
  }
  return [...lines.values()];
}

/** What some tickets of an order were sold for in all, VAT included: the sum of the lines that bill them. */
export async function ticketsAmountMinor(ctx: Ctx, attendeeIds: string[]): Promise<number> {
  const lines = await ticketLines(ctx, attendeeIds);
  return lines.reduce((sum, line) => sum + line.unitPriceMinor * line.quantity, 0);
}
