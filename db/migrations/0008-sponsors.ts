// Sponsors of an event, the levels they buy (and what each level includes), and the leads their
// booth staff capture: a visitor's details kept only as far as the visitor agreed to share them.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

const flag = (column: string) => sql.raw(`"${column}" in (0, 1)`);
const atLeastZero = (column: string) => sql.raw(`"${column}" >= 0`);

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

  await changing(
    owned('sponsor_levels')
      .addColumn('name', 'text', (c) => c.notNull())
      // From 1 up, highest first; 0 is what a sponsor without a level ranks.
      .addColumn('rank', 'integer', (c) => c.notNull().check(sql`"rank" >= 1`))
      .addColumn('colour', 'text', (c) => c.notNull())
      .addColumn('staff_allowance', 'integer', (c) => c.notNull().check(atLeastZero('staff_allowance')))
      .addColumn('free_tickets', 'integer', (c) => c.notNull().check(atLeastZero('free_tickets')))
      .addColumn('lead_download', 'integer', (c) => c.notNull().check(flag('lead_download')))
      .addColumn('lead_export_until', 'text')
      .addColumn('discount_codes', 'integer', (c) => c.notNull().check(atLeastZero('discount_codes')))
      .addColumn('discount_percent', 'integer', (c) =>
        c.notNull().check(sql`"discount_percent" between 0 and 100`),
      )
      .addColumn('logo_on_page', 'integer', (c) => c.notNull().check(flag('logo_on_page')))
      .addColumn('logo_on_screens', 'integer', (c) => c.notNull().check(flag('logo_on_screens')))
      .addColumn('logo_on_badges', 'integer', (c) => c.notNull().check(flag('logo_on_badges')))
      .addColumn('sponsored_session', 'integer', (c) => c.notNull().check(flag('sponsored_session'))),
  ).execute();
  await db.schema
    .createIndex('sponsor_levels_event_rank')
    .on('sponsor_levels')
    .columns(['event_id', 'rank'])
    .execute();

  await changing(
    owned('sponsors')
      .addColumn('level_id', 'text', (c) => c.references('sponsor_levels.id').onDelete('set null'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('website', 'text')
      .addColumn('logo_url', 'text')
      .addColumn('description', 'text')
      .addColumn('booth', 'text')
      // Place within its level.
      .addColumn('sort_order', 'integer', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('sponsors_event_level')
    .on('sponsors')
    .columns(['event_id', 'level_id', 'sort_order'])
    .execute();

  // Details are copied from the visitor when they agree to share (shared), the email only when they
  // share it too (email_shared); a visitor who did not agree leaves no details at all.
  await changing(
    owned('leads')
      .addColumn('sponsor_id', 'text', (c) => c.notNull().references('sponsors.id').onDelete('cascade'))
      .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
      .addColumn('shared', 'integer', (c) => c.notNull().check(flag('shared')))
      .addColumn('email_shared', 'integer', (c) => c.notNull().check(flag('email_shared')))
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('company', 'text')
      .addColumn('job_title', 'text')
      .addColumn('email', 'text')
      .addColumn('answers', 'text')
      .addColumn('origin', 'text', (c) => c.notNull().check(sql`"origin" in ('booth', 'request', 'session')`))
      .addColumn('rating', 'integer', (c) => c.notNull().check(sql`"rating" between 1 and 3`))
      .addColumn('note', 'text')
      .addColumn('captured_by', 'text', (c) => c.notNull())
      .addColumn('captured_utc', 'text', (c) => c.notNull())
      .addColumn('attended_session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
      .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(flag('erased')))
      .addCheckConstraint('leads_email_shared', sql`"email_shared" = 0 or "shared" = 1`)
      .addCheckConstraint('leads_email_only_shared', sql`"email" is null or "email_shared" = 1`)
      .addCheckConstraint(
        'leads_details_only_shared',
        sql`"shared" = 1 or ("first_name" is null and "last_name" is null and "company" is null and "job_title" is null and "answers" is null)`,
      ),
  ).execute();
  // Newest first; only shared leads are listed.
  await db.schema
    .createIndex('leads_event_captured')
    .on('leads')
    .columns(['event_id', 'shared', 'captured_utc', 'id'])
    .execute();
  await db.schema.createIndex('leads_sponsor').on('leads').column('sponsor_id').execute();
  // One lead per visitor and sponsor: a second scan finds the first (capturedBy is who scanned first).
  await db.schema
    .createIndex('leads_sponsor_attendee')
    .on('leads')
    .columns(['sponsor_id', 'attendee_id'])
    .unique()
    .execute();
  // Erasure finds a person's leads by attendee and by email.
  await db.schema.createIndex('leads_attendee').on('leads').column('attendee_id').execute();
  await db.schema.createIndex('leads_email').on('leads').columns(['workspace_id', 'email']).execute();
}
