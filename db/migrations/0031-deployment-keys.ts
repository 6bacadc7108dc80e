// Webhooks to your own network (issue 28): the fingerprint of the key webhook signing secrets are
// encrypted under, so a start with another key (TESSERA_SECRET_KEY set or changed later, a lost
// instance.key, a process with a data folder of its own) is refused instead of leaving every
// delivery unsigned. One row per purpose; the fingerprint says nothing of the key.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deployment_keys')
    .addColumn('purpose', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('recorded_utc', 'text', (c) => c.notNull())
    .execute();
}
