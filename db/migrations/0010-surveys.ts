// Surveys (their questions), the answers given to them, and session ratings. Nothing here says who
// answered or rated: results are computed from these rows and never name anyone.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('surveys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    // JSON object: language -> title.
    .addColumn('title', 'text', (c) => c.notNull())
    // JSON array of { id, kind, label: { language: text }, options?: [{ value, label }] }.
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('opens_utc', 'text')
    .addColumn('closes_utc', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('surveys_event').on('surveys').columns(['event_id', 'change_seq']).execute();

  await db.schema
    .createTable('survey_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    // JSON object: question id -> answer.
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('submitted_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('survey_responses_survey').on('survey_responses').column('survey_id').execute();

  await db.schema
    .createTable('session_ratings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('stars', 'integer', (c) => c.notNull().check(sql`stars between 1 and 5`))
    .addColumn('rated_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('session_ratings_event')
    .on('session_ratings')
    .columns(['event_id', 'session_id'])
    .execute();
}
