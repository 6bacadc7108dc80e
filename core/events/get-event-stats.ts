import * as v from 'valibot';
import { toMajor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import {
  awaitingPaymentStatuses,
  countRegistered,
  orderStatuses,
  orderTotals,
  placesLeft,
  ticketTotals,
  totalCapacity,
  validOrderStatuses,
} from '../sales';
import { moneyFigures, moneySchema } from './money-figures';

export const eventStatsSchema = v.object({
  eventId: uuid('The event id.'),
  registered: int32('Valid tickets (not cancelled, order paid or free), crew left out.'),
  crew: int32('Valid crew tickets.'),
  awaiting: int32(
    'Active tickets whose order is not paid or free yet (pending, on account, transfer, requested).',
  ),
  cancelled: int32('Cancelled tickets.'),
  checkedIn: int32('Registered attendees checked in at least once.'),
  capacity: v.nullable(int32('Places in all ticket types (crew left out); null without limit.')),
  remaining: v.nullable(int32('Places left; null without limit.')),
  orders: v.object({
    total: int32('All orders.'),
    byStatus: v.pipe(v.record(v.picklist(orderStatuses), v.number()), v.description('Orders per status.')),
  }),
  revenue: v.pipe(v.number(), v.description('Paid orders, VAT included.')),
  currency: text('ISO 4217 currency.'),
  money: moneySchema,
  ticketTypes: v.array(
    v.object({
      ticketTypeId: uuid('The ticket type.'),
      name: text('Its name.'),
      capacity: v.nullable(int32('Places; null when unlimited.')),
      taken: int32('Places taken.'),
      remaining: v.nullable(int32('Places left.')),
    }),
  ),
  atUtc: dateTime('When counted.'),
});

export const getEventStats = defineOperation({
  name: 'getEventStats',
  title: 'Event statistics',
  description:
    "An event's counts now: registrations, check-ins, places left, orders by status and revenue, also per ticket type. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: eventStatsSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // From totals kept as tickets and orders change: the cost does not grow with the event.
    const groups = await ticketTotals(ctx, event.id);
    const { registered, checkedIn } = await countRegistered(ctx, event.id, groups);
    let crew = 0;
    let awaiting = 0;
    let cancelled = 0;
    for (const g of groups) {
      if (g.attendeeStatus === 'cancelled') cancelled += g.n;
      else if (validOrderStatuses.includes(g.orderStatus)) {
        if (g.crew) crew += g.n;
      } else if (awaitingPaymentStatuses.includes(g.orderStatus)) awaiting += g.n;
    }
    const orders = await orderTotals(ctx, event.id);
    const types = await ctx.db
      .selectFrom('ticket_types')
      .selectAll()
      .where('event_id', '=', event.id)
      .orderBy('sort_order')
      .execute();
    const counted = types.filter((t) => t.crew === 0);
    const capacity = totalCapacity(counted);
    return {
      eventId: event.id,
      registered,
      crew,
      awaiting,
      cancelled,
      checkedIn,
      capacity,
      remaining: placesLeft(
        capacity,
        counted.reduce((n, t) => n + t.taken, 0),
      ),
      orders: { total: orders.total, byStatus: orders.byStatus },
      revenue: toMajor(orders.amountMinor.paid, event.currency),
      currency: event.currency,
      money: await moneyFigures(ctx, event, orders),
      ticketTypes: types.map((t) => ({
        ticketTypeId: t.id,
        name: t.name,
        capacity: t.capacity,
        taken: t.taken,
        remaining: placesLeft(t.capacity, t.taken),
      })),
      atUtc: ctx.clock.now().toISOString(),
    };
  },
});
