// Card payments through Stripe (issue 52): a workspace's connection to its Stripe account (the secret
// key and the webhook signing secret kept only encrypted, as webhook signing secrets are), the Stripe
// events received at its webhook address (one row per event id: a resent event is not handled twice;
// no payload is kept, so no buyer's details), and which payment methods each event offers.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stripe_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('account_id', 'text')
    .addColumn('account_name', 'text')
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`"mode" in ('test', 'live')`))
    .addColumn('secret_key_enc', 'text', (c) => c.notNull())
    .addColumn('key_last4', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_enc', 'text')
    .addColumn('connected_by', 'text', (c) => c.notNull())
    .addColumn('connected_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stripe_events')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('livemode', 'integer', (c) => c.notNull().check(sql`"livemode" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('received_utc', 'text', (c) => c.notNull())
    .addColumn('handled', 'integer', (c) => c.notNull().check(sql`"handled" in (0, 1)`))
    .addPrimaryKeyConstraint('stripe_events_pk', ['workspace_id', 'event_id'])
    .execute();
  await db.schema
    .alterTable('events')
    .addColumn('payment_methods', 'text', (c) =>
      c.notNull().defaultTo('transfer').check(sql`"payment_methods" in ('transfer', 'card', 'both')`),
    )
    .execute();
}
