// Crew (volunteers and staff of an event, with their roles), the shifts they work, and who is on
// which shift. A shift's assigned and open places are counted from its assignment rows, never
// stored: whoever adds or removes an assignment touches the shift and the crew member (updated_utc,
// change_seq), so updatedSince and "oldest change first" see the change.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('crew_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    // JSON array of role names (door, infoDesk, room, greeter, swag and others of the organiser's).
    .addColumn('roles', 'text', (c) => c.notNull())
    // Their crew ticket.
    .addColumn('attendee_id', 'text', (c) => c.references('attendees.id').onDelete('set null'))
    .addColumn('invited_utc', 'text', (c) => c.notNull())
    .addColumn('last_seen_utc', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('crew_members_list')
    .on('crew_members')
    .columns(['event_id', 'change_seq'])
    .execute();
  // Erasure finds a person's rows by email, and by their ticket.
  await db.schema
    .createIndex('crew_members_email')
    .on('crew_members')
    .columns(['workspace_id', 'email'])
    .execute();
  await db.schema.createIndex('crew_members_attendee').on('crew_members').column('attendee_id').execute();

  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('place_kind', 'text', (c) =>
      c.notNull().check(sql`"place_kind" in ('door', 'room', 'area', 'other')`),
    )
    // The door or room (no foreign key: it names one of two tables); null for an area or other place.
    .addColumn('place_id', 'text')
    // How the place is shown; null for a door or room shows its own name.
    .addColumn('place_name', 'text')
    .addColumn('starts_utc', 'text', (c) => c.notNull())
    .addColumn('ends_utc', 'text', (c) => c.notNull())
    .addColumn('needed', 'integer', (c) => c.notNull().check(sql`"needed" >= 0`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'shifts_place_id_door_or_room',
      sql`"place_id" is null or "place_kind" = 'door' or "place_kind" = 'room'`,
    )
    .addCheckConstraint('shifts_ends_after_start', sql`"ends_utc" > "starts_utc"`)
    .execute();
  // Time order (the list's), and updatedSince within an event.
  await db.schema
    .createIndex('shifts_event_time')
    .on('shifts')
    .columns(['event_id', 'starts_utc', 'id'])
    .execute();

  await db.schema
    .createTable('shift_assignments')
    .addColumn('shift_id', 'text', (c) => c.notNull().references('shifts.id').onDelete('cascade'))
    .addColumn('crew_member_id', 'text', (c) => c.notNull().references('crew_members.id').onDelete('cascade'))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    // One place per crew member on a shift.
    .addPrimaryKeyConstraint('shift_assignments_pk', ['shift_id', 'crew_member_id'])
    .execute();
  // A crew member's shifts.
  await db.schema
    .createIndex('shift_assignments_crew_member')
    .on('shift_assignments')
    .column('crew_member_id')
    .execute();
}
