import type { Kysely } from 'kysely';

// Sales core: ticket types, add-ons, discount codes, registration questions, orders, attendees.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const owned = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'));

  await owned('ticket_types')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_rate', 'real', (c) => c.notNull())
    .addColumn('capacity', 'integer')
    .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_per_order', 'integer', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('access_code', 'text')
    .addColumn('requires_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('crew', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sales_start_utc', 'text')
    .addColumn('sales_end_utc', 'text')
    .addColumn('included_add_on_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_types_event_change')
    .on('ticket_types')
    .columns(['event_id', 'change_seq'])
    .execute();

  await owned('add_ons')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_rate', 'real', (c) => c.notNull())
    .addColumn('capacity', 'integer')
    .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('add_ons_event_change')
    .on('add_ons')
    .columns(['event_id', 'change_seq'])
    .execute();

  await owned('discount_codes')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('code_key', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer')
    .addColumn('amount_minor', 'integer')
    .addColumn('max_uses', 'integer')
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_from_utc', 'text')
    .addColumn('valid_until_utc', 'text')
    .addColumn('ticket_type_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addUniqueConstraint('discount_codes_event_code', ['event_id', 'code_key'])
    .execute();
  await db.schema
    .createIndex('discount_codes_event_change')
    .on('discount_codes')
    .columns(['event_id', 'change_seq'])
    .execute();

  await owned('questions')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('max_length', 'integer')
    .addColumn('ticket_type_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('questions_event')
    .on('questions')
    .columns(['event_id', 'sort_order'])
    .execute();

  await owned('orders')
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('buyer_name', 'text')
    .addColumn('buyer_email', 'text')
    .addColumn('buyer_company', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_provider', 'text')
    .addColumn('paid_utc', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('discount_code_id', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addUniqueConstraint('orders_event_reference', ['event_id', 'reference'])
    .execute();
  await db.schema
    .createIndex('orders_event_change')
    .on('orders')
    .columns(['event_id', 'change_seq'])
    .execute();
  await db.schema
    .createIndex('orders_event_created')
    .on('orders')
    .columns(['event_id', 'created_utc', 'id'])
    .execute();
  await db.schema
    .createIndex('orders_buyer_email')
    .on('orders')
    .columns(['workspace_id', 'buyer_email'])
    .execute();

  await owned('attendees')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'text', (c) => c.notNull().references('ticket_types.id'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('company', 'text')
    .addColumn('job_title', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('answers', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checked_in_utc', 'text')
    .addColumn('cancelled_utc', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('attendees_event_change')
    .on('attendees')
    .columns(['event_id', 'change_seq'])
    .execute();
  await db.schema
    .createIndex('attendees_event_created')
    .on('attendees')
    .columns(['event_id', 'created_utc', 'id'])
    .execute();
  await db.schema.createIndex('attendees_order').on('attendees').column('order_id').execute();
  await db.schema.createIndex('attendees_email').on('attendees').columns(['workspace_id', 'email']).execute();

  await db.schema
    .createTable('attendee_add_ons')
    .addColumn('attendee_id', 'text', (c) => c.notNull().references('attendees.id').onDelete('cascade'))
    .addColumn('add_on_id', 'text', (c) => c.notNull().references('add_ons.id').onDelete('cascade'))
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('attendee_add_ons_pk', ['attendee_id', 'add_on_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'attendee_add_ons',
    'attendees',
    'orders',
    'questions',
    'discount_codes',
    'add_ons',
    'ticket_types',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
