import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('demonstration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('legacy_scopes', 'text')
    .addColumn('rate_per_minute', 'integer')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('expires_utc', 'text')
    .addColumn('revoked_utc', 'text')
    .addColumn('last_used_utc', 'text')
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').column('workspace_id').execute();

  await db.schema
    .createTable('key_activity')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('at_utc', 'text', (c) => c.notNull())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .addColumn('source', 'text')
    .execute();
  await db.schema
    .createIndex('key_activity_key_time')
    .on('key_activity')
    .columns(['api_key_id', 'at_utc'])
    .execute();
  await db.schema.createIndex('key_activity_time').on('key_activity').column('at_utc').execute();

  await db.schema
    .createTable('workspace_activity')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('at_utc', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .execute();
  await db.schema
    .createIndex('workspace_activity_workspace_time')
    .on('workspace_activity')
    .columns(['workspace_id', 'at_utc'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('expires_utc', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['api_key_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('idempotency_records_expiry')
    .on('idempotency_records')
    .column('expires_utc')
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('online', 'integer', (c) => c.notNull())
    .addColumn('venue_name', 'text')
    .addColumn('venue_address', 'text')
    .addColumn('venue_city', 'text')
    .addColumn('venue_country', 'text')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('starts_utc', 'text', (c) => c.notNull())
    .addColumn('ends_utc', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('modules', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addUniqueConstraint('events_workspace_slug', ['workspace_id', 'slug'])
    .execute();
  await db.schema
    .createIndex('events_workspace_change')
    .on('events')
    .columns(['workspace_id', 'change_seq'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('dispatched_utc', 'text')
    .execute();
  await db.schema.createIndex('outbox_pending').on('outbox').columns(['dispatched_utc', 'id']).execute();

  await db.schema
    .createTable('change_sequence')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into change_sequence (name, value) values ('changes', 0)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'change_sequence',
    'outbox',
    'events',
    'idempotency_records',
    'workspace_activity',
    'key_activity',
    'api_keys',
    'workspaces',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
