// The money of an event as an organiser reads it (issue 52, item 6), in the event's currency (its
// orders' one): received (what buyers paid, refunded orders included), outstanding (orders holding
// places while their payment is awaited, by status), refunded (what was paid back, also of orders
// still paid), net (received less refunded), and complimentary orders counted apart (they cost
// nothing, so no amount says them). Orders and amounts by status come from the totals the database
// keeps; refunds and complimentary orders are summed over the event's orders that have them.
import * as v from 'valibot';
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { toMajor } from '../platform/money';
import { int32, text } from '../platform/schemas';
import { awaitingPaymentStatuses, type orderTotals } from '../sales';

const amount = (description: string) => v.pipe(v.number(), v.description(description));

export const moneySchema = v.pipe(
  v.object({
    currency: text("ISO 4217 currency of every amount here (the event's)."),
    received: amount('What buyers paid, VAT included: paid orders and orders refunded since.'),
    outstanding: amount(
      'Awaited: orders holding places whose payment has not arrived, pending approval included (by status below).',
    ),
    outstandingByStatus: v.pipe(
      v.record(v.picklist(awaitingPaymentStatuses), v.number()),
      v.description(
        'The outstanding amount per status: pending (held in checkout), onAccount, transfer (awaiting a bank transfer) and requested (pending approval: orders waiting for the organiser to approve them, whose payment is asked for only once approved).',
      ),
    ),
    refunded: amount('Paid back, VAT included, of whole orders and of some of their tickets.'),
    net: amount('Received less refunded.'),
    complimentary: v.pipe(
      v.object({
        orders: int32('Orders given free on purpose (payment complimentary).'),
        tickets: int32('Their tickets still active.'),
      }),
      v.description('Complimentary orders, counted apart from free registrations: they charge nothing.'),
    ),
  }),
  v.description(
    'Tessera extension: the money figures, each saying what it counts; revenue above is the paid orders alone.',
  ),
);

type OrderTotals = Awaited<ReturnType<typeof orderTotals>>;

export async function moneyFigures(
  ctx: Ctx,
  event: EventRow,
  orders: OrderTotals,
): Promise<v.InferOutput<typeof moneySchema>> {
  const major = (minor: number) => toMajor(minor, event.currency);
  const received = orders.amountMinor.paid + orders.amountMinor.refunded;
  const refunded = await ctx.db
    .selectFrom('orders')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('refunded_minor'), eb.lit(0)).as('minor'))
    .where('event_id', '=', event.id)
    .where('refunded_minor', '>', 0)
    .executeTakeFirstOrThrow();
  const complimentary = await ctx.db
    .selectFrom('orders')
    .leftJoin('attendees', (join) =>
      join.onRef('attendees.order_id', '=', 'orders.id').on('attendees.status', '=', 'active'),
    )
    .select((eb) => [
      eb.fn.count<number>('orders.id').distinct().as('orders'),
      eb.fn.count<number>('attendees.id').as('tickets'),
    ])
    .where('orders.event_id', '=', event.id)
    .where('orders.payment_method', '=', 'complimentary')
    .executeTakeFirstOrThrow();
  const byStatus = Object.fromEntries(
    awaitingPaymentStatuses.map((status) => [status, major(orders.amountMinor[status])]),
  ) as Record<(typeof awaitingPaymentStatuses)[number], number>;
  const outstanding = awaitingPaymentStatuses.reduce((sum, status) => sum + orders.amountMinor[status], 0);
  return {
    currency: event.currency,
    received: major(received),
    outstanding: major(outstanding),
    outstandingByStatus: byStatus,
    refunded: major(Number(refunded.minor)),
    net: major(received - Number(refunded.minor)),
    complimentary: { orders: Number(complimentary.orders), tickets: Number(complimentary.tickets) },
  };
}
