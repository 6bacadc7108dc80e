// The sources that come in by import only (no API list reads them yet): hotel stays, travel,
// expense claims, certificates and published content. Their changes are what the stay.*,
// travel.changed, claim.*, certificate.issued and content.published messages carry.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

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
  // A person named on a row: erasure finds them by email (and by ticket where there is one).
  const person = (table: CreateTableBuilder<string, string>) =>
    table
      .addColumn('first_name', 'text')
      .addColumn('last_name', 'text')
      .addColumn('email', 'text')
      .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`));
  const byEmail = (table: string) =>
    db.schema.createIndex(`${table}_email`).on(table).columns(['workspace_id', 'email']).execute();

  await changing(
    person(
      owned('stays')
        .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`"status" in ('requested', 'assigned', 'cancelled')`),
        )
        .addColumn('hotel', 'text')
        .addColumn('room', 'text')
        .addColumn('check_in_date', 'text', (c) => c.notNull())
        .addColumn('check_out_date', 'text', (c) => c.notNull())
        .addCheckConstraint('stays_dates', sql`"check_out_date" > "check_in_date"`)
        .addCheckConstraint('stays_assigned', sql`"status" <> 'assigned' or "hotel" is not null`),
    ),
  ).execute();
  await byEmail('stays');
  await db.schema.createIndex('stays_attendee').on('stays').column('attendee_id').execute();

  await changing(
    person(
      owned('travel')
        .addColumn('mode', 'text', (c) =>
          c.notNull().check(sql`"mode" in ('flight', 'train', 'bus', 'car', 'other')`),
        )
        .addColumn('from_place', 'text', (c) => c.notNull())
        .addColumn('to_place', 'text', (c) => c.notNull())
        .addColumn('departs_utc', 'text', (c) => c.notNull())
        .addColumn('arrives_utc', 'text', (c) => c.notNull())
        // The booking reference is the traveller's: erased with them.
        .addColumn('reference', 'text')
        .addCheckConstraint('travel_times', sql`"arrives_utc" > "departs_utc"`),
    ),
  ).execute();
  await byEmail('travel');

  await changing(
    person(
      owned('expense_claims')
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('amount_minor', 'integer', (c) => c.notNull().check(sql`"amount_minor" > 0`))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`"status" in ('submitted', 'approved', 'paid', 'rejected')`),
        )
        .addColumn('submitted_utc', 'text', (c) => c.notNull())
        .addColumn('approved_utc', 'text')
        .addColumn('paid_utc', 'text')
        .addCheckConstraint(
          'expense_claims_approved',
          sql`"status" not in ('approved', 'paid') or "approved_utc" is not null`,
        )
        .addCheckConstraint('expense_claims_paid', sql`("status" = 'paid') = ("paid_utc" is not null)`),
    ),
  ).execute();
  await byEmail('expense_claims');

  await changing(
    person(
      owned('certificates')
        .addColumn('attendee_id', 'text', (c) => c.notNull().references('attendees.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`"kind" in ('attendance', 'speaker', 'crew')`))
        .addColumn('issued_utc', 'text', (c) => c.notNull()),
    ),
  ).execute();
  await byEmail('certificates');
  await db.schema.createIndex('certificates_attendee').on('certificates').column('attendee_id').execute();

  await changing(
    owned('published_content')
      .addColumn('kind', 'text', (c) =>
        c.notNull().check(sql`"kind" in ('slides', 'recording', 'article', 'photos')`),
      )
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('set null'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('published_utc', 'text', (c) => c.notNull()),
  ).execute();
}
