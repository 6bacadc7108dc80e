// Share links made and removed through the API: a link now carries when it was made, when it last
// changed and its change position (the list pages "oldest change first" and by updatedSince), and
// when it was removed. A removed link is kept, so the clicks and registrations it brought still
// count on the leaderboard, but its short address no longer answers.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { addChangeTxn } from '../change-feed-schema';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('share_links')
    .addColumn('created_utc', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('share_links')
    .addColumn('updated_utc', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('share_links')
    .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('share_links').addColumn('removed_utc', 'text').execute();
  await addChangeTxn(db, 'share_links', true);

  // Links already there were made when they were shared; their positions follow that order.
  const links = await db
    .selectFrom('share_links')
    .select(['id', 'shared_utc'])
    .orderBy('shared_utc')
    .orderBy('id')
    .execute();
  if (links.length > 0) {
    const reserved = await sql<{ value: number }>`
      update change_sequence set value = value + ${links.length} where name = 'changes' returning value`.execute(
      db,
    );
    let seq = Number(reserved.rows[0]!.value) - links.length + 1;
    for (const link of links) {
      await db
        .updateTable('share_links')
        .set({ created_utc: link.shared_utc, updated_utc: link.shared_utc, change_seq: seq++ })
        .where('id', '=', link.id)
        .execute();
    }
  }
  await db.schema
    .createIndex('share_links_event_change')
    .on('share_links')
    .columns(['event_id', 'change_txn', 'change_seq'])
    .execute();
}
