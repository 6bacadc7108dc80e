// What several processes on one database need: call counters they share
// (core/platform/storage/shared-rate-counter.ts), one row per counted thing (a key, a source address) with
// its window's start and the calls in it; and which process claimed a delivery, so a process
// that died leaves nothing claimed for long (db/liveness.ts).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_windows')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('started_ms', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('deliveries').addColumn('claimed_by', 'text').execute();
}
