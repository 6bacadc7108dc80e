// The call for speakers (submissions, their speakers, the status history and reviewers' scores)
// and the share kit (who shares the event, their links, the clicks on them and the registrations
// those links brought). Counts and averages are never stored: they are read from these rows.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

const submissionStatuses = sql.raw(
  "'draft', 'submitted', 'underReview', 'accepted', 'waitlisted', 'rejected', 'withdrawn'",
);

export async function up(db: Kysely<any>): Promise<void> {
  const owned = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'));
  const changing = (table: CreateTableBuilder<string, string>) =>
    table
      .addColumn('created_utc', 'text', (c) => c.notNull())
      .addColumn('updated_utc', 'text', (c) => c.notNull())
      .addColumn('change_seq', 'integer', (c) => c.notNull());
  const inWorkspace = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'));

  await changing(
    owned('submissions')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('abstract', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) =>
        c.notNull().check(sql`"format" in ('talk', 'workshop', 'lightning', 'panel')`),
      )
      .addColumn('track_id', 'text', (c) => c.references('tracks.id').onDelete('set null'))
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`"status" in (${submissionStatuses})`))
      // The session it became once accepted.
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
      .addColumn('submitted_utc', 'text')
      .addColumn('decided_utc', 'text')
      // A draft has not been sent; everything else has.
      .addCheckConstraint('submissions_submitted', sql`("status" = 'draft') = ("submitted_utc" is null)`)
      .addCheckConstraint(
        'submissions_decided',
        sql`"status" not in ('accepted', 'waitlisted', 'rejected') or "decided_utc" is not null`,
      )
      .addCheckConstraint('submissions_session', sql`"session_id" is null or "status" = 'accepted'`),
  ).execute();
  await db.schema
    .createIndex('submissions_event_change')
    .on('submissions')
    .columns(['event_id', 'change_seq'])
    .execute();
  await db.schema
    .createIndex('submissions_event_status_change')
    .on('submissions')
    .columns(['event_id', 'status', 'change_seq'])
    .execute();

  // Speakers of a submission, the first is who sent it; their details are personal data.
  await changing(
    inWorkspace('submission_speakers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
      .addColumn('sort_order', 'integer', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('email', 'text')
      .addColumn('company', 'text')
      .addColumn('bio', 'text')
      .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`)),
  ).execute();
  await db.schema
    .createIndex('submission_speakers_submission')
    .on('submission_speakers')
    .columns(['submission_id', 'sort_order'])
    .execute();
  // Erasure finds a person's rows by email.
  await db.schema
    .createIndex('submission_speakers_email')
    .on('submission_speakers')
    .columns(['workspace_id', 'email'])
    .execute();

  // Every status a submission had, in order (the id keeps changes of one moment in order).
  await inWorkspace('submission_status_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`"status" in (${submissionStatuses})`))
    .addColumn('at_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submission_status_changes_submission')
    .on('submission_status_changes')
    .columns(['submission_id', 'at_utc', 'id'])
    .execute();

  // Reviewers' scores; a submission's rating is their average. Nothing says who reviewed.
  await inWorkspace('submission_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull().check(sql`"score" between 1 and 5`))
    .addColumn('reviewed_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('submission_reviews_submission')
    .on('submission_reviews')
    .column('submission_id')
    .execute();

  // Who shares the event: an attendee, a speaker or a sponsor, each with their own links.
  await changing(
    owned('sharers')
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`"kind" in ('attendee', 'speaker', 'sponsor')`))
      .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
      .addColumn('speaker_id', 'text', (c) => c.references('speakers.id').onDelete('set null'))
      .addColumn('sponsor_id', 'text', (c) => c.references('sponsors.id').onDelete('set null'))
      .addColumn('name', 'text')
      .addColumn('email', 'text')
      .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
      .addCheckConstraint('sharers_attendee', sql`"attendee_id" is null or "kind" = 'attendee'`)
      .addCheckConstraint('sharers_speaker', sql`"speaker_id" is null or "kind" = 'speaker'`)
      .addCheckConstraint('sharers_sponsor', sql`"sponsor_id" is null or "kind" = 'sponsor'`),
  ).execute();
  await db.schema.createIndex('sharers_event').on('sharers').columns(['event_id', 'id']).execute();
  // One sharer per ticket; erasure finds a person's rows by email and by ticket.
  await db.schema
    .createIndex('sharers_event_attendee')
    .on('sharers')
    .columns(['event_id', 'attendee_id'])
    .unique()
    .execute();
  await db.schema.createIndex('sharers_attendee').on('sharers').column('attendee_id').execute();
  await db.schema.createIndex('sharers_email').on('sharers').columns(['workspace_id', 'email']).execute();

  // A sharer's personal link, one per channel they shared it on; code is the link's ref.
  await owned('share_links')
    .addColumn('sharer_id', 'text', (c) => c.notNull().references('sharers.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) =>
      c.notNull().check(sql`"channel" in ('linkedin', 'x', 'facebook', 'email', 'messaging', 'other')`),
    )
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('shared_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('share_links_event_code')
    .on('share_links')
    .columns(['event_id', 'code'])
    .unique()
    .execute();
  await db.schema.createIndex('share_links_sharer').on('share_links').column('sharer_id').execute();

  // One row per click (nothing about who clicked).
  await inWorkspace('share_clicks')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('link_id', 'text', (c) => c.notNull().references('share_links.id').onDelete('cascade'))
    .addColumn('clicked_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_clicks_link').on('share_clicks').column('link_id').execute();

  // The link a ticket was registered through: a ticket is brought by one link at most.
  await inWorkspace('share_registrations')
    .addColumn('attendee_id', 'text', (c) => c.primaryKey().references('attendees.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.notNull().references('share_links.id').onDelete('cascade'))
    .addColumn('registered_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('share_registrations_link')
    .on('share_registrations')
    .column('link_id')
    .execute();
}
