// Every way an organiser takes an order (issue 52): what each ticket was sold for, the discount an
// order was given, and why a complimentary order costs nothing.
// - attendees.price_minor: the ticket's price as sold, VAT included, after any discount code. An
//   invoice bills what was sold, not the ticket type's price of the day (it may change, and a code
//   takes some off); null for tickets sold before, billed at their type's price as until now.
// - orders.discount_minor: what the order's discount code took off in all, VAT included (0 without one).
// - orders.refunded_minor: what was paid back of the order in all, VAT included: a refund of some of
//   its tickets leaves it paid, so its status alone cannot say. An order refunded before was refunded
//   whole (its status says so); one refunded in part before keeps 0 (nothing recorded how much).
// - orders.payment_note: a complimentary order's reason (a guest, a speaker), said where it is counted
//   apart; not personal data (the organiser's own words about why).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('attendees').addColumn('price_minor', 'integer').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('discount_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('refunded_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('orders')
    .set({ refunded_minor: sql`total_minor` })
    .where('status', '=', 'refunded')
    .execute();
  await db.schema.alterTable('orders').addColumn('payment_note', 'text').execute();
}
