import { DateTime } from 'luxon';
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { toMajor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { int32, text, uuid } from '../platform/schemas';
import {
  countRegistered,
  placesLeft,
  registeredTickets,
  totalCapacity,
  venueDayBounds,
  venueDayOf,
} from '../sales';

const weekSchema = v.object({
  tickets: int32('Valid tickets made.'),
  revenue: v.pipe(v.number(), v.description('Paid, VAT included.')),
});

export const salesPaceSchema = v.object({
  eventId: uuid('The event id.'),
  currency: text('ISO 4217 currency.'),
  timeZone: text('The days are venue days in this zone.'),
  days: v.array(
    v.object({
      date: v.pipe(v.string(), v.isoDate(), v.description('Venue day.')),
      tickets: int32('Valid tickets made that day, crew left out.'),
      orders: int32('Orders paid that day.'),
      revenue: v.pipe(v.number(), v.description('Paid that day, VAT included.')),
    }),
  ),
  lastSevenDays: weekSchema,
  previousSevenDays: v.nullable(weekSchema),
  change: v.nullable(
    v.pipe(
      v.number(),
      v.description(
        'Tickets this week against last week, percentage change; null without a previous week or with none sold then.',
      ),
    ),
  ),
  ticketsPerDay: v.pipe(v.number(), v.description('Over the last seven days.')),
  registered: int32('Valid tickets now, crew left out.'),
  capacity: v.nullable(int32('Places in all ticket types; null without limit.')),
  daysToGo: int32('Days until the first day.'),
  projected: int32('Registered by the first day at this pace.'),
  soldOutIn: v.nullable(int32('Days until sold out at this pace; null without a limit or without sales.')),
});

export const getSalesPace = defineOperation({
  name: 'getSalesPace',
  title: 'Sales pace',
  description:
    'How fast an event sells: tickets, orders and revenue per day, this week against last, and the projected sell-out. Needs orders:read.',
  scope: 'orders:read',
  effect: 'read',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(7),
        v.maxValue(90),
        v.description('Venue days, 7 to 90. Default 30.'),
      ),
    ),
  }),
  output: salesPaceSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const zone = event.time_zone;
    const count = input.days ?? 30;
    const today = DateTime.fromJSDate(ctx.clock.now(), { zone }).startOf('day');
    const first = today.minus({ days: count - 1 });
    const byDay = await salesByDay(ctx, event.id, first, count);
    const weeks = weekOnWeek(byDay, event.currency);
    const { registered } = await countRegistered(ctx, event.id);
    const capacity = await publicCapacity(ctx, event.id);
    const firstDay = DateTime.fromISO(event.starts_utc, { zone: 'utc' }).setZone(zone).startOf('day');
    const daysToGo = Math.max(0, Math.round(firstDay.diff(today, 'days').days));
    return {
      eventId: event.id,
      currency: event.currency,
      timeZone: zone,
      days: byDay.map((d) => ({
        date: d.date,
        tickets: d.tickets,
        orders: d.orders,
        revenue: toMajor(d.revenueMinor, event.currency),
      })),
      ...weeks,
      registered,
      capacity,
      daysToGo,
      ...projection(registered, capacity, weeks.ticketsPerDay, daysToGo),
    };
  },
});

/** One venue day's sales, revenue in minor units. */
interface DaySales {
  date: string;
  tickets: number;
  orders: number;
  revenueMinor: number;
}

/** Tickets made and orders paid on each of `count` venue days from `first`, zeros included. */
async function salesByDay(ctx: Ctx, eventId: string, first: DateTime, count: number): Promise<DaySales[]> {
  const fromUtc = first.toUTC().toISO()!;
  const bounds = venueDayBounds(first, count);
  const tickets = await registeredTickets(ctx, eventId)
    .select((eb) => [
      venueDayOf(eb, 'attendees.created_utc', bounds).as('day'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('attendees.created_utc', '>=', fromUtc)
    .groupBy('day')
    .execute();
  const paid = await ctx.db
    .selectFrom('orders')
    .select((eb) => [
      venueDayOf(eb, 'paid_utc', bounds).as('day'),
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('total_minor').as('total'),
    ])
    .where('event_id', '=', eventId)
    .where('status', '=', 'paid')
    .where('paid_utc', '>=', fromUtc)
    .groupBy('day')
    .execute();

  const byDay: DaySales[] = Array.from({ length: count }, (_, i) => ({
    date: first.plus({ days: i }).toISODate()!,
    tickets: 0,
    orders: 0,
    revenueMinor: 0,
  }));
  const dayOf = (day: unknown) => (day === null ? undefined : byDay[Number(day)]);
  for (const t of tickets) {
    const day = dayOf(t.day);
    if (day) day.tickets += Number(t.n);
  }
  for (const o of paid) {
    const day = dayOf(o.day);
    if (day) {
      day.orders += Number(o.n);
      day.revenueMinor += Number(o.total ?? 0);
    }
  }
  return byDay;
}

/** The last seven days against the seven before (when counted), and the pace of the last seven. */
function weekOnWeek(byDay: DaySales[], currency: string) {
  const week = (slice: DaySales[]) => ({
    tickets: slice.reduce((n, d) => n + d.tickets, 0),
    revenue: toMajor(
      slice.reduce((n, d) => n + d.revenueMinor, 0),
      currency,
    ),
  });
  const lastSevenDays = week(byDay.slice(-7));
  const previousSevenDays = byDay.length >= 14 ? week(byDay.slice(-14, -7)) : null;
  const change =
    previousSevenDays && previousSevenDays.tickets > 0
      ? Math.round(((lastSevenDays.tickets - previousSevenDays.tickets) / previousSevenDays.tickets) * 1000) /
        10
      : null;
  const ticketsPerDay = Math.round((lastSevenDays.tickets / 7) * 100) / 100;
  return { lastSevenDays, previousSevenDays, change, ticketsPerDay };
}

/** Places in the public ticket types (crew left out); null without a limit. */
async function publicCapacity(ctx: Ctx, eventId: string): Promise<number | null> {
  const types = await ctx.db
    .selectFrom('ticket_types')
    .select('capacity')
    .where('event_id', '=', eventId)
    .where('crew', '=', 0)
    .execute();
  return totalCapacity(types);
}

/** Registered by the first day at this pace (never above the capacity), and days until sold out. */
function projection(registered: number, capacity: number | null, ticketsPerDay: number, daysToGo: number) {
  const projectedRaw = registered + Math.round(ticketsPerDay * daysToGo);
  const projected = capacity === null ? projectedRaw : Math.min(capacity, projectedRaw);
  const left = placesLeft(capacity, registered);
  const soldOutIn =
    left === null ? null : left === 0 ? 0 : ticketsPerDay > 0 ? Math.ceil(left / ticketsPerDay) : null;
  return { projected, soldOutIn };
}
