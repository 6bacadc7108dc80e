// The call for speakers run through the API: the call itself (one per event: its window and the
// formats and tracks it offers), reviews that say who reviewed (one per reviewer and submission,
// changeable, so they now carry their change position for the list) and draft sessions (made by
// accepting a submission, kept off the public programme until the organiser publishes them).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { addChangeTxn } from '../change-feed-schema';

export async function up(db: Kysely<any>): Promise<void> {
  // No row: the call was never opened. formats and track_ids are JSON arrays.
  await db.schema
    .createTable('calls_for_speakers')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('opens_utc', 'text')
    .addColumn('closes_utc', 'text')
    .addColumn('formats', 'text', (c) => c.notNull())
    .addColumn('track_ids', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .execute();

  // Who reviewed (an email address: personal data, erased with the person) and what they said.
  await db.schema.alterTable('submission_reviews').addColumn('reviewer_email', 'text').execute();
  await db.schema.alterTable('submission_reviews').addColumn('comment', 'text').execute();
  await db.schema
    .alterTable('submission_reviews')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    .execute();
  for (const column of ['created_utc', 'updated_utc'])
    await db.schema
      .alterTable('submission_reviews')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  await db.schema
    .alterTable('submission_reviews')
    .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await addChangeTxn(db, 'submission_reviews', true);

  // Reviews already there were made when they were given; their positions follow that order.
  const reviews = await db
    .selectFrom('submission_reviews')
    .select(['id', 'reviewed_utc'])
    .orderBy('reviewed_utc')
    .orderBy('id')
    .execute();
  if (reviews.length > 0) {
    const reserved = await sql<{ value: number }>`
      update change_sequence set value = value + ${reviews.length} where name = 'changes' returning value`.execute(
      db,
    );
    let seq = Number(reserved.rows[0]!.value) - reviews.length + 1;
    for (const review of reviews) {
      await db
        .updateTable('submission_reviews')
        .set({ created_utc: review.reviewed_utc, updated_utc: review.reviewed_utc, change_seq: seq++ })
        .where('id', '=', review.id)
        .execute();
    }
  }
  // One review per reviewer and submission, even when two arrive at once (older reviews name no one).
  await db.schema
    .createIndex('submission_reviews_reviewer')
    .on('submission_reviews')
    .columns(['submission_id', 'reviewer_email'])
    .unique()
    .execute();
  await db.schema
    .createIndex('submission_reviews_submission_change')
    .on('submission_reviews')
    .columns(['submission_id', 'change_txn', 'change_seq'])
    .execute();
  // Erasure finds a person's reviews by email.
  await db.schema
    .createIndex('submission_reviews_email')
    .on('submission_reviews')
    .columns(['workspace_id', 'reviewer_email'])
    .execute();

  // A draft session is the organiser's only: the public event page leaves it out.
  await db.schema
    .alterTable('sessions')
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"draft" in (0, 1)`))
    .execute();
}
