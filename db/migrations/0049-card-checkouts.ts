// Card payments through Stripe Checkout (issue 52): one row per order paid by card, beside the order
// (one home for what only card orders have). The order is `pending` while its places are held for
// the buyer's Checkout session, until `hold_until_utc` (the session expires then too); the session
// is made after the order's transaction (no call to Stripe inside a write), so its id and address
// are null until stored. The PaymentIntent is what a refund names; kept apart from the order's
// payment reference (personal data, erased with the buyer) as it is Stripe's opaque id only.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('card_checkouts')
    .addColumn('order_id', 'text', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.unique())
    .addColumn('session_url', 'text')
    .addColumn('hold_until_utc', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  // The reconciliation job's question: which holds end first.
  await db.schema.createIndex('card_checkouts_hold').on('card_checkouts').column('hold_until_utc').execute();
  await db.schema
    .createIndex('card_checkouts_payment_intent')
    .on('card_checkouts')
    .column('payment_intent_id')
    .execute();
}
