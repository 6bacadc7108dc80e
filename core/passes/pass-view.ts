// The public Pass resource (season pass or bundle) with what is sold and, per event it admits
// to, how many holders go and how many seats the event holds for them. Counts come from the
// holders and their orders on the sales event, for a page of passes in three queries.
import { sql } from 'kysely';
import * as v from 'valibot';
import type { PassRow } from '../../db/schema';
import { passEventSources, passKinds, passRefundRules, passScopes, passStatuses } from '../../db/values';
import type { Ctx } from '../platform/context';
import { toMajor } from '../platform/money';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import { awaitingPaymentStatuses, validOrderStatuses } from '../sales';

export const passEventSchema = v.object({
  eventId: uuid('The event id.'),
  name: text('Name of the event.'),
  startsUtc: dateTime('First moment of the event.'),
  holders: int32('Active holders of the pass (also those whose payment is under way).'),
  optedOut: int32('Active holders who said they will not come to this event.'),
  heldSeats: int32(
    "Seats this event holds for holders: the pass's capacity less those who opted out of it, never below 0.",
  ),
  source: v.pipe(
    v.picklist(passEventSources),
    v.description('list (named by the pass) or range (in the series between fromDate and toDate).'),
  ),
});

export const passSchema = v.object({
  passId: uuid('The pass id.'),
  kind: v.pipe(v.picklist(passKinds), v.description('season or bundle.')),
  communityId: v.nullable(uuid('Community of a season pass.')),
  salesEventId: uuid('Event whose orders, payments and invoices carry the money.'),
  name: text('Name, as the invoice line shows it.'),
  description: v.nullable(text('Description.')),
  price: v.pipe(v.number(), v.description("Price, VAT included, with the currency's own decimals.")),
  vatRate: v.pipe(v.number(), v.description('VAT rate in percent.')),
  currency: text('ISO 4217 currency.'),
  capacity: int32('How many are sold at most, and the seats each event holds for holders.'),
  sold: int32('Active holders whose order is paid or free.'),
  waiting: int32(
    'Active holders whose payment is under way (order pending, onAccount, transfer or requested).',
  ),
  left: int32('Capacity less sold and waiting, never below 0.'),
  scope: v.pipe(
    v.picklist(passScopes),
    v.description('range (every event of a series between two dates) or list (named events).'),
  ),
  seriesId: v.nullable(uuid("A range pass's series.")),
  fromDate: v.nullable(v.pipe(v.string(), v.isoDate(), v.description("A range's first day."))),
  toDate: v.nullable(v.pipe(v.string(), v.isoDate(), v.description("A range's last day."))),
  salesStartUtc: v.nullable(dateTime('Sales open.')),
  salesEndUtc: v.nullable(dateTime('Sales close.')),
  refundRule: v.pipe(
    v.picklist(passRefundRules),
    v.description(
      'beforeFirst (refunded on request before the first event), organiser (at their discretion) or none.',
    ),
  ),
  status: v.pipe(v.picklist(passStatuses), v.description('draft, onSale or closed.')),
  events: v.pipe(v.array(passEventSchema), v.description('Events it admits to, first first.')),
  createdUtc: dateTime('When it was made.'),
  updatedUtc: dateTime('Last change.'),
});

export type PassView = v.InferOutput<typeof passSchema>;
export type PassEventView = v.InferOutput<typeof passEventSchema>;

interface PassCounts {
  sold: number;
  waiting: number;
  events: PassEventView[];
}

/** Sold, waiting and the per-event counts of the given passes. */
async function countsOf(ctx: Ctx, rows: PassRow[]): Promise<Map<string, PassCounts>> {
  const counts = new Map<string, PassCounts>(rows.map((r) => [r.id, { sold: 0, waiting: 0, events: [] }]));
  if (rows.length === 0) return counts;
  const passIds = rows.map((r) => r.id);
  const capacity = new Map(rows.map((r) => [r.id, r.capacity]));

  const holders = await ctx.db
    .selectFrom('pass_holders')
    .innerJoin('orders', 'orders.id', 'pass_holders.order_id')
    .select([
      'pass_holders.pass_id as pass_id',
      sql<number>`sum(case when orders.status in (${sql.join([...validOrderStatuses])}) then 1 else 0 end)`.as(
        'sold',
      ),
      sql<number>`sum(case when orders.status in (${sql.join([...awaitingPaymentStatuses])}) then 1 else 0 end)`.as(
        'waiting',
      ),
    ])
    .where('pass_holders.pass_id', 'in', passIds)
    .where('pass_holders.status', '=', 'active')
    .groupBy('pass_holders.pass_id')
    .execute();
  for (const h of holders) {
    const c = counts.get(h.pass_id)!;
    c.sold = Number(h.sold);
    c.waiting = Number(h.waiting);
  }

  const events = await ctx.db
    .selectFrom('pass_events')
    .innerJoin('events', 'events.id', 'pass_events.event_id')
    .select([
      'pass_events.pass_id as pass_id',
      'pass_events.event_id as event_id',
      'pass_events.source as source',
      'events.name as name',
      'events.starts_utc as starts_utc',
      (eb) =>
        eb
          .selectFrom('pass_holders')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('pass_holders.pass_id', '=', 'pass_events.pass_id')
          .where('pass_holders.status', '=', 'active')
          .as('holders'),
      (eb) =>
        eb
          .selectFrom('pass_opt_outs')
          .innerJoin('pass_holders', 'pass_holders.id', 'pass_opt_outs.holder_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('pass_holders.pass_id', '=', 'pass_events.pass_id')
          .whereRef('pass_opt_outs.event_id', '=', 'pass_events.event_id')
          .where('pass_holders.status', '=', 'active')
          .as('opted_out'),
    ])
    .where('pass_events.pass_id', 'in', passIds)
    .where('events.workspace_id', '=', ctx.actor.workspaceId)
    .orderBy('events.starts_utc')
    .orderBy('events.id')
    .execute();
  for (const e of events) {
    const optedOut = Number(e.opted_out ?? 0);
    counts.get(e.pass_id)!.events.push({
      eventId: e.event_id,
      name: e.name,
      startsUtc: e.starts_utc,
      holders: Number(e.holders ?? 0),
      optedOut,
      heldSeats: Math.max(0, capacity.get(e.pass_id)! - optedOut),
      source: e.source,
    });
  }
  return counts;
}

function passView(row: PassRow, counts: PassCounts): PassView {
  return {
    passId: row.id,
    kind: row.kind,
    communityId: row.community_id,
    salesEventId: row.sales_event_id,
    name: row.name,
    description: row.description,
    price: toMajor(row.price_minor, row.currency),
    vatRate: row.vat_rate,
    currency: row.currency,
    capacity: row.capacity,
    sold: counts.sold,
    waiting: counts.waiting,
    left: Math.max(0, row.capacity - counts.sold - counts.waiting),
    scope: row.scope,
    seriesId: row.series_id,
    fromDate: row.from_date,
    toDate: row.to_date,
    salesStartUtc: row.sales_start_utc,
    salesEndUtc: row.sales_end_utc,
    refundRule: row.refund_rule,
    status: row.status,
    events: counts.events,
    createdUtc: row.created_utc,
    updatedUtc: row.updated_utc,
  };
}

/** The views of a page of passes, in the rows' order. */
export async function passViews(ctx: Ctx, rows: PassRow[]): Promise<Map<string, PassView>> {
  const counts = await countsOf(ctx, rows);
  return new Map(rows.map((r) => [r.id, passView(r, counts.get(r.id)!)]));
}
