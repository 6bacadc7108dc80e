import type { Kysely } from 'kysely';

// Nothing reads scans by door and time (lists and counts go by event), and every scan paid for
// the index with a page in its commit.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('check_ins_door_time').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('check_ins_door_time')
    .on('check_ins')
    .columns(['door_id', 'scanned_utc'])
    .execute();
}
