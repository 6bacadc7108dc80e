// Survey answers and session ratings given live by an attendee: who gave each is kept only to
// take one per attendee (a unique index, so two requests at once cannot both pass), never shown, and
// cut on erasure (the answer stays, anonymous, and is still counted). Imported feedback names no one:
// its attendee is null, and nulls never collide. A rating may carry a comment.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('survey_responses')
    .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('survey_responses_once')
    .on('survey_responses')
    .columns(['survey_id', 'attendee_id'])
    .unique()
    .execute();

  await db.schema
    .alterTable('session_ratings')
    .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('session_ratings').addColumn('comment', 'text').execute();
  await db.schema
    .createIndex('session_ratings_once')
    .on('session_ratings')
    .columns(['session_id', 'attendee_id'])
    .unique()
    .execute();
}
