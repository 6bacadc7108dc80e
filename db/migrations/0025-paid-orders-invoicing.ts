// Paid orders and invoices issued by the service: how an order was paid (method and the payment's
// reference, kept with the order and erased with the buyer), each event's invoicing settings (the
// seller as printed, the series prefix, the footer, a second VAT currency with its rate), and one
// counter row per event from which invoices and credit notes take their places in the series: the
// counter moves in the same transaction as the document is written, so the series has no gap and
// no repeat (PostgreSQL locks the row for the update; SQLite has one writer).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('payment_method', 'text').execute();
  await db.schema.alterTable('orders').addColumn('payment_reference', 'text').execute();

  await db.schema
    .createTable('event_invoicing')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`"enabled" in (0, 1)`))
    .addColumn('seller_name', 'text', (c) => c.notNull())
    .addColumn('seller_address', 'text')
    .addColumn('seller_vat_number', 'text')
    .addColumn('seller_registration', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('footer', 'text')
    .addColumn('vat_currency', 'text')
    // Units of vat_currency for one unit of the event's currency.
    .addColumn('vat_rate', 'real', (c) => c.check(sql`"vat_rate" > 0`))
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addCheckConstraint('event_invoicing_vat', sql`("vat_currency" is null) = ("vat_rate" is null)`)
    .execute();

  await db.schema
    .createTable('invoice_series')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    .addColumn('last_no', 'integer', (c) => c.notNull().check(sql`"last_no" >= 0`))
    .execute();
  // Series already begun (imported documents) go on after their last place.
  await sql`insert into invoice_series (event_id, last_no)
    select event_id, max(series_no) from invoices group by event_id`.execute(db);
}
