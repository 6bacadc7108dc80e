// Webhooks: endpoints (signed deliveries; their signing secrets encrypted with the deployment's
// master key), automation subscriptions (unsigned callbacks), and the delivery state the
// dispatcher keeps apart from the outbox: one row per message and receiver, one per attempt.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

const eventTypes = [
  'attendee.registered',
  'attendee.updated',
  'attendee.cancelled',
  'attendee.erased',
  'order.paid',
  'checkin.created',
  'feedback.given',
  'lead.captured',
  'certificate.issued',
  'content.published',
  'stay.requested',
  'stay.assigned',
  'stay.changed',
  'stay.cancelled',
  'member.joined',
  'member.left',
  'travel.changed',
  'claim.submitted',
  'claim.approved',
  'claim.paid',
  'shift.signed_up',
  'shift.dropped',
];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().check(sql`"active" in (0, 1)`))
    .addColumn('disabled_reason', 'text', (c) =>
      c.check(sql`"disabled_reason" is null or "disabled_reason" in ('gone', 'keyRevoked', 'keyExpired')`),
    )
    // AES-256-GCM under a key derived from TESSERA_SECRET_KEY; null only for sample endpoints made
    // where no master key is configured (they are never delivered to).
    .addColumn('secret_enc', 'text')
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_secret_until_utc', 'text')
    .addColumn('api_key_id', 'text', (c) => c.references('api_keys.id').onDelete('set null'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('last_status', 'text', (c) =>
      c.check(sql`"last_status" is null or "last_status" in ('succeeded', 'failed')`),
    )
    .addColumn('last_delivery_utc', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhooks_workspace')
    .on('webhooks')
    .columns(['workspace_id', 'created_utc'])
    .execute();
  await db.schema.createIndex('webhooks_key').on('webhooks').column('api_key_id').execute();

  await db.schema
    .createTable('hooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text', (c) => c.references('api_keys.id').onDelete('cascade'))
    .addColumn('event_type', 'text', (c) =>
      c.notNull().check(sql.raw(`"event_type" in (${list(eventTypes)})`)),
    )
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull().check(sql`"client" in ('zapier', 'make', 'n8n')`))
    .addColumn('active', 'integer', (c) => c.notNull().check(sql`"active" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('hooks_workspace')
    .on('hooks')
    .columns(['workspace_id', 'created_utc'])
    .execute();
  await db.schema.createIndex('hooks_key').on('hooks').column('api_key_id').execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // The outbox message delivered; null for a test message, whose body is kept here.
    .addColumn('outbox_id', 'integer', (c) => c.references('outbox.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`"target_kind" in ('webhook', 'hook')`))
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`"state" in ('pending', 'succeeded', 'failed', 'cancelled')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0).check(sql`attempts >= 0`))
    .addColumn('next_attempt_utc', 'text')
    .addColumn('claimed_until_utc', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index deliveries_message_target on deliveries (outbox_id, target_kind, target_id) where outbox_id is not null`.execute(
    db,
  );
  // Due deliveries, receiver by receiver (the dispatcher reads each receiver's part on its own).
  await sql`create index deliveries_due on deliveries (target_kind, target_id, next_attempt_utc) where state = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('deliveries_target')
    .on('deliveries')
    .columns(['target_kind', 'target_id', 'id'])
    .execute();
  await db.schema.createIndex('deliveries_outbox').on('deliveries').column('outbox_id').execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull().check(sql`attempt >= 1`))
    .addColumn('started_utc', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('outcome', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`"outcome" in ('succeeded', 'httpError', 'gone', 'timeout', 'networkError', 'privateAddress', 'notSigned')`,
        ),
    )
    .addColumn('error', 'text')
    .addColumn('next_attempt_utc', 'text')
    .execute();
  await db.schema
    .createIndex('delivery_attempts_delivery')
    .on('delivery_attempts')
    .columns(['delivery_id', 'attempt'])
    .execute();

  // Expiry of a key removes its subscriptions and switches its endpoints off, once.
  await db.schema.alterTable('api_keys').addColumn('ended_handled_utc', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['delivery_attempts', 'deliveries', 'hooks', 'webhooks'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('api_keys').dropColumn('ended_handled_utc').execute();
}
