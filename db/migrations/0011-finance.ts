// Finance: the invoices and credit notes of an event's orders (one numbering series per event, with
// the lines each document shows), and the event's budget lines. A credit note corrects one invoice
// and carries negative amounts; an invoice's are never below zero. The buyer's details are a copy
// made at issue (erased with the person); the seller is the organiser as printed, kept as JSON.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`"kind" in ('invoice', 'creditNote')`))
    // Place in the event's series (invoices and credit notes share it); the list's order.
    .addColumn('series_no', 'integer', (c) => c.notNull().check(sql`"series_no" >= 1`))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('corrects_id', 'text', (c) => c.references('invoices.id'))
    .addColumn('issued_utc', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('vat_currency', 'text')
    .addColumn('vat_converted_minor', 'integer')
    .addColumn('buyer_name', 'text')
    .addColumn('buyer_email', 'text')
    .addColumn('buyer_company', 'text')
    .addColumn('buyer_address', 'text')
    .addColumn('buyer_vat_number', 'text')
    .addColumn('buyer_reference', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    // JSON object { enabled, sellerName, sellerAddress, sellerVatNumber, sellerRegistration, prefix, footer }.
    .addColumn('seller', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'invoices_kind_sign',
      sql`("kind" = 'invoice' and "corrects_id" is null and "total_minor" >= 0 and "vat_minor" >= 0) or ("kind" = 'creditNote' and "corrects_id" is not null and "total_minor" <= 0 and "vat_minor" <= 0)`,
    )
    // A buyer is named with an address to send to, or not at all (erased, or none given).
    .addCheckConstraint('invoices_buyer', sql`("buyer_name" is null) = ("buyer_email" is null)`)
    .addCheckConstraint(
      'invoices_vat_converted',
      sql`("vat_currency" is null) = ("vat_converted_minor" is null)`,
    )
    .execute();
  await db.schema
    .createIndex('invoices_event_series')
    .on('invoices')
    .columns(['event_id', 'series_no'])
    .unique()
    .execute();
  await db.schema
    .createIndex('invoices_event_number')
    .on('invoices')
    .columns(['event_id', 'number'])
    .unique()
    .execute();
  await db.schema.createIndex('invoices_order').on('invoices').column('order_id').execute();
  // Erasure finds a person's invoices by the buyer's email.
  await db.schema
    .createIndex('invoices_buyer_email')
    .on('invoices')
    .columns(['workspace_id', 'buyer_email'])
    .execute();

  await db.schema
    .createTable('invoice_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'text', (c) => c.notNull().references('ticket_types.id'))
    .addColumn('add_on_id', 'text', (c) => c.references('add_ons.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_minor', 'integer', (c) => c.notNull().check(sql`"unit_price_minor" >= 0`))
    .addColumn('vat_rate', 'real', (c) => c.notNull().check(sql`"vat_rate" >= 0`))
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_minor', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoice_lines_invoice')
    .on('invoice_lines')
    .columns(['invoice_id', 'sort'])
    .execute();

  // Amounts net of VAT and never below zero: kind says whether a line brings money in or costs it.
  const amount = (column: string) => sql.raw(`"${column}" >= 0`);
  await db.schema
    .createTable('budget_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`"kind" in ('income', 'cost')`))
    .addColumn('budgeted_minor', 'integer', (c) => c.notNull().check(amount('budgeted_minor')))
    .addColumn('committed_minor', 'integer', (c) => c.notNull().check(amount('committed_minor')))
    .addColumn('actual_minor', 'integer', (c) => c.notNull().check(amount('actual_minor')))
    .addColumn('forecast_minor', 'integer', (c) => c.notNull().check(amount('forecast_minor')))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('budget_lines_event')
    .on('budget_lines')
    .columns(['event_id', 'change_seq'])
    .execute();
}
