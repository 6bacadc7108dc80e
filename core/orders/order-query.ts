import type { Db } from '../../db/connect';

/** Orders with the count of tickets they hold (cancelled ones left out). */
export function orderQuery(db: Db) {
  return db
    .selectFrom('orders')
    .selectAll('orders')
    .select((eb) =>
      eb
        .selectFrom('attendees')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('attendees.order_id', '=', 'orders.id')
        .where('attendees.status', '=', 'active')
        .as('attendee_count'),
    );
}
