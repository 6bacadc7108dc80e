import type { CreateTableBuilder, Kysely } from 'kysely';

// Doors and check-in, the programme (rooms, tracks, speakers, sessions), season passes and bundles.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const owned = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'));
  const changing = (table: CreateTableBuilder<string, string>) =>
    table
      .addColumn('created_utc', 'text', (c) => c.notNull())
      .addColumn('updated_utc', 'text', (c) => c.notNull())
      .addColumn('change_seq', 'integer', (c) => c.notNull());

  await changing(
    owned('rooms')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('capacity', 'integer')
      .addColumn('location', 'text')
      .addColumn('sort_order', 'integer', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('rooms_event_change').on('rooms').columns(['event_id', 'change_seq']).execute();

  await changing(
    owned('tracks')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('colour', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('sort_order', 'integer', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('tracks_event_change')
    .on('tracks')
    .columns(['event_id', 'change_seq'])
    .execute();

  await changing(
    owned('speakers')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('company', 'text')
      .addColumn('job_title', 'text')
      .addColumn('bio', 'text')
      .addColumn('photo_url', 'text')
      .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema
    .createIndex('speakers_event_change')
    .on('speakers')
    .columns(['event_id', 'change_seq'])
    .execute();

  await changing(
    owned('sessions')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('summary', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('room_id', 'text', (c) => c.references('rooms.id').onDelete('set null'))
      .addColumn('track_id', 'text', (c) => c.references('tracks.id').onDelete('set null'))
      .addColumn('starts_utc', 'text', (c) => c.notNull())
      .addColumn('ends_utc', 'text', (c) => c.notNull())
      .addColumn('capacity', 'integer')
      .addColumn('language', 'text')
      .addColumn('join_provider', 'text')
      .addColumn('join_url', 'text')
      .addColumn('speaker_ids', 'text', (c) => c.notNull().defaultTo('[]')),
  ).execute();
  await db.schema
    .createIndex('sessions_event_change')
    .on('sessions')
    .columns(['event_id', 'change_seq'])
    .execute();
  await db.schema
    .createIndex('sessions_room_time')
    .on('sessions')
    .columns(['room_id', 'starts_utc'])
    .execute();

  await changing(
    owned('doors')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('main', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
      .addColumn('capacity', 'integer')
      .addColumn('inside', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reentry', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('ticket_type_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('add_on_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('sort_order', 'integer', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('doors_event').on('doors').columns(['event_id', 'sort_order']).execute();

  await db.schema
    .createTable('check_ins')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attendee_id', 'text', (c) => c.notNull().references('attendees.id').onDelete('cascade'))
    .addColumn('door_id', 'text', (c) => c.notNull().references('doors.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('admitted', 'integer', (c) => c.notNull())
    .addColumn('scanned_utc', 'text', (c) => c.notNull())
    .addColumn('offline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recorded_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_ins_event_id').on('check_ins').columns(['event_id', 'id']).execute();
  await db.schema
    .createIndex('check_ins_door_time')
    .on('check_ins')
    .columns(['door_id', 'scanned_utc'])
    .execute();

  // Who is (or was) inside which door: one row per door and attendee.
  await db.schema
    .createTable('door_presence')
    .addColumn('door_id', 'text', (c) => c.notNull().references('doors.id').onDelete('cascade'))
    .addColumn('attendee_id', 'text', (c) => c.notNull().references('attendees.id').onDelete('cascade'))
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addColumn('first_in_utc', 'text', (c) => c.notNull())
    .addColumn('last_scan_utc', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('door_presence_pk', ['door_id', 'attendee_id'])
    .execute();

  await db.schema
    .createTable('passes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('community_id', 'text')
    .addColumn('sales_event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_rate', 'real', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text')
    .addColumn('from_date', 'text')
    .addColumn('to_date', 'text')
    .addColumn('sales_start_utc', 'text')
    .addColumn('sales_end_utc', 'text')
    .addColumn('refund_rule', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('passes_workspace_change')
    .on('passes')
    .columns(['workspace_id', 'change_seq'])
    .execute();

  await db.schema
    .createTable('pass_events')
    .addColumn('pass_id', 'text', (c) => c.notNull().references('passes.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pass_events_pk', ['pass_id', 'event_id'])
    .execute();
  await db.schema.createIndex('pass_events_event').on('pass_events').column('event_id').execute();

  await db.schema
    .createTable('pass_holders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('pass_id', 'text', (c) => c.notNull().references('passes.id').onDelete('cascade'))
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ended_reason', 'text')
    .addColumn('ended_utc', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pass_holders_pass_created')
    .on('pass_holders')
    .columns(['pass_id', 'created_utc', 'id'])
    .execute();

  await db.schema
    .createTable('pass_opt_outs')
    .addColumn('holder_id', 'text', (c) => c.notNull().references('pass_holders.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('pass_opt_outs_pk', ['holder_id', 'event_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'pass_opt_outs',
    'pass_holders',
    'pass_events',
    'passes',
    'door_presence',
    'check_ins',
    'doors',
    'sessions',
    'speakers',
    'tracks',
    'rooms',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
