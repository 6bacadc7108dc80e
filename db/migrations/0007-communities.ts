// Communities (a series of meetups with members, at /c/{slug}) and their members; an event may
// belong to a community (its meetups).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('communities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Unique across the deployment, like an event's: the address /c/{slug} is.
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('description', 'text')
    .addColumn('city', 'text')
    .addColumn('online', 'integer', (c) => c.notNull().check(sql`"online" in (0, 1)`))
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('join_policy', 'text', (c) => c.notNull().check(sql`"join_policy" in ('open', 'approval')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`"status" in ('draft', 'published')`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('communities_workspace')
    .on('communities')
    .columns(['workspace_id', 'change_seq'])
    .execute();

  await db.schema
    .createTable('community_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`"status" in ('active', 'pending', 'left')`))
    .addColumn('announcements', 'integer', (c) => c.notNull().check(sql`"announcements" in (0, 1)`))
    .addColumn('reminders', 'integer', (c) => c.notNull().check(sql`"reminders" in (0, 1)`))
    .addColumn('joined_utc', 'text', (c) => c.notNull())
    .addColumn('approved_utc', 'text')
    .addColumn('left_utc', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('community_members_list')
    .on('community_members')
    .columns(['community_id', 'change_seq'])
    .execute();
  // Erasure finds a person's rows by email.
  await db.schema
    .createIndex('community_members_email')
    .on('community_members')
    .columns(['workspace_id', 'email'])
    .execute();

  // A community's meetups are its events.
  await db.schema
    .alterTable('events')
    .addColumn('community_id', 'text', (c) => c.references('communities.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('events_community')
    .on('events')
    .columns(['community_id', 'starts_utc'])
    .execute();
}
