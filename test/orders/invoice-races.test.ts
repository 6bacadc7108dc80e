// Payments at once (issue 26, item 2), each call having read before any writes
// (test/support/interleave.ts), on SQLite (and on PostgreSQL under npm run test:postgres): the
// invoices of concurrent payments take the places of the event's series without a gap or a
// repeat, and one order confirmed twice at once is paid once, with one invoice. Without the
// counter row (core/finance/invoice-series.ts) and the conditional update (core/orders/pay-order.ts)
// both calls would take the same number, or both would pay.
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { updateInvoicing } from '../../core/finance/update-invoicing';
import { confirmPayment } from '../../core/orders/confirm-payment';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Invoice races');

async function invoicingEvent() {
  const { eventId } = await call(createEvent, eventBody());
  await call(updateInvoicing, { eventId, enabled: true, sellerName: 'Race AS', prefix: 'R-' });
  return { eventId, typeId: await pricedTicketType(db(), eventId, 10_000, 25) };
}

const pay = (eventId: string, orderId: string) => [
  confirmPayment,
  { eventId, orderId, method: 'transfer', provider: 'Bank' },
];

describe('payments that have all read before any writes', () => {
  it('number the invoices of 8 payments 1 to 8, none twice', async () => {
    const { eventId, typeId } = await invoicingEvent();
    const orders = [];
    for (let i = 0; i < 8; i++) orders.push(await pendingOrder(db(), eventId, typeId, 1));
    const answers = await atOnce(...orders.map((o) => pay(eventId, o.orderId) as [any, unknown]));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill('paid'));
    const invoices = await db()
      .selectFrom('invoices')
      .select(['series_no', 'number', 'order_id'])
      .where('event_id', '=', eventId)
      .orderBy('series_no')
      .execute();
    expect(invoices.map((i) => i.series_no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(invoices.map((i) => i.number)).toEqual(invoices.map((i) => `R-000${i.series_no}`));
    expect(new Set(invoices.map((i) => i.order_id)).size).toBe(8);
  });

  it('pays one order confirmed twice at once once, with one invoice', async () => {
    const { eventId, typeId } = await invoicingEvent();
    const { orderId } = await pendingOrder(db(), eventId, typeId, 1);
    const answers = await atOnce(
      pay(eventId, orderId) as [any, unknown],
      pay(eventId, orderId) as [any, unknown],
    );
    expect(answers.map((a) => (typeof a === 'string' ? a : a.status)).sort()).toEqual([
      'orderNotAwaitingPayment',
      'paid',
    ]);
    const invoices = await db().selectFrom('invoices').select('id').where('order_id', '=', orderId).execute();
    expect(invoices).toHaveLength(1);
  });
});
