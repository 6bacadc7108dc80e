// Call counters shared by several processes on one database (core/platform/shared-rate-counter.ts):
// one row per counted thing (a key, a source address), its window's start and the calls in it.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_windows')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('started_ms', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();
}
