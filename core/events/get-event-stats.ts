import * as v from 'valibot';
import { toMajor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import { awaitingPaymentStatuses, orderStatuses, validOrderStatuses } from '../sales/order-status';
import { placesLeft, totalCapacity } from '../sales/places';
import { countRegistered } from '../sales/registered';

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
    const { registered, checkedIn } = await countRegistered(ctx, event.id);
    // The other tickets: crew, awaiting payment, cancelled.
    const tickets = await ctx.db
      .selectFrom('attendees')
      .innerJoin('orders', 'orders.id', 'attendees.order_id')
      .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
      .select((eb) => [
        'attendees.status',
        'orders.status as order_status',
        'ticket_types.crew',
        eb.fn.countAll<number>().as('n'),
      ])
      .where('attendees.event_id', '=', event.id)
      .groupBy(['attendees.status', 'orders.status', 'ticket_types.crew'])
      .execute();
    let crew = 0;
    let awaiting = 0;
    let cancelled = 0;
    for (const t of tickets) {
      const n = Number(t.n);
      if (t.status === 'cancelled') cancelled += n;
      else if (validOrderStatuses.includes(t.order_status)) {
        if (t.crew === 1) crew += n;
      } else if (awaitingPaymentStatuses.includes(t.order_status)) awaiting += n;
    }
    const orderRows = await ctx.db
      .selectFrom('orders')
      .select((eb) => [
        'status',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('total_minor').as('total'),
      ])
      .where('event_id', '=', event.id)
      .groupBy('status')
      .execute();
    const byStatus = Object.fromEntries(orderStatuses.map((s) => [s, 0])) as Record<
      (typeof orderStatuses)[number],
      number
    >;
    let revenueMinor = 0;
    for (const o of orderRows) {
      byStatus[o.status as keyof typeof byStatus] = Number(o.n);
      if (o.status === 'paid') revenueMinor += Number(o.total ?? 0);
    }
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
      orders: { total: orderRows.reduce((n, o) => n + Number(o.n), 0), byStatus },
      revenue: toMajor(revenueMinor, event.currency),
      currency: event.currency,
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
