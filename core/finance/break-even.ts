// The break-even point: how many paid tickets, at the average ticket price, make forecast income
// cover forecast costs. The price is what paid ticket orders brought in net of VAT (add-ons
// included) per ticket in them (a pass sold on the event is not a ticket); before any paid order,
// the mean net price of the event's priced ticket types.
// Income other than tickets counts at its forecast; the tickets category's own lines do not (the
// tickets needed are what it has to bring).
import { sql } from 'kysely';
import * as v from 'valibot';
import type { BudgetLineRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { toMajor } from '../platform/money';
import { int32 } from '../platform/schemas';
import { ticketIncomeCategory } from './budget-summary';

export const breakEvenSchema = v.object({
  averageTicketPrice: v.nullable(
    v.pipe(
      v.number(),
      v.description(
        "Income per paid ticket, net of VAT, with the currency's own decimals: what paid ticket orders brought in (total less VAT, add-ons included; a pass sold on the event is not a ticket) over the tickets in them; before any paid order, the mean net price of the priced ticket types; null when there is neither.",
      ),
    ),
  ),
  priceFrom: v.nullable(
    v.pipe(
      v.picklist(['orders', 'ticketTypes']),
      v.description('Where averageTicketPrice comes from: paid orders, or ticket types before any sale.'),
    ),
  ),
  tickets: v.nullable(
    int32(
      'Paid tickets needed at averageTicketPrice so forecast income covers forecast costs: forecast costs less the forecast of every income category but tickets, over the price, rounded up; 0 when the other income covers the costs; null without a price.',
    ),
  ),
  paidTickets: int32(
    'Tickets in paid orders so far (a ticket cancelled after payment counts: its money was kept).',
  ),
  reached: v.pipe(v.boolean(), v.description('paidTickets is at least tickets.')),
});

export type BreakEven = v.InferOutput<typeof breakEvenSchema>;

/** The net price of a ticket priced VAT included, in minor units. */
const netOf = (priceMinor: number, vatRate: number) => priceMinor / (1 + vatRate / 100);

export async function breakEvenOf(
  ctx: Ctx,
  event: { id: string; currency: string },
  lines: BudgetLineRow[],
): Promise<BreakEven> {
  const { net } = await ctx.db
    .selectFrom('orders')
    .select(sql<number>`coalesce(sum(total_minor - vat_minor), 0)`.as('net'))
    .where('event_id', '=', event.id)
    .where('status', '=', 'paid')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('attendees').select('id').whereRef('attendees.order_id', '=', 'orders.id')),
    )
    .executeTakeFirstOrThrow();
  const { n } = await ctx.db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orders.event_id', '=', event.id)
    .where('orders.status', '=', 'paid')
    .executeTakeFirstOrThrow();
  const paidTickets = Number(n);
  let priceMinor: number | null = null;
  let priceFrom: BreakEven['priceFrom'] = null;
  if (paidTickets > 0) {
    priceMinor = Math.round(Number(net) / paidTickets);
    priceFrom = 'orders';
  } else {
    const types = await ctx.db
      .selectFrom('ticket_types')
      .select(['price_minor', 'vat_rate'])
      .where('event_id', '=', event.id)
      .where('crew', '=', 0)
      .where('price_minor', '>', 0)
      .execute();
    if (types.length > 0) {
      priceMinor = Math.round(types.reduce((n, t) => n + netOf(t.price_minor, t.vat_rate), 0) / types.length);
      priceFrom = 'ticketTypes';
    }
  }
  const costs = lines.filter((l) => l.kind === 'cost').reduce((n, l) => n + l.forecast_minor, 0);
  const otherIncome = lines
    .filter((l) => l.kind === 'income' && l.category !== ticketIncomeCategory)
    .reduce((n, l) => n + l.forecast_minor, 0);
  const gap = costs - otherIncome;
  const tickets = gap <= 0 ? 0 : priceMinor ? Math.ceil(gap / priceMinor) : null;
  return {
    averageTicketPrice: priceMinor === null ? null : toMajor(priceMinor, event.currency),
    priceFrom,
    tickets,
    paidTickets,
    reached: tickets !== null && paidTickets >= tickets,
  };
}
