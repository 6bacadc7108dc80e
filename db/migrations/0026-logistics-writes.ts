// Stays, travel and expense claims written through the API (issue 26): each may name the speaker
// or crew member it is for (erasing that person reaches the row through the link too), a journey
// can be cancelled and stays listed as such, and the three lists page by change like the others.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['stays', 'travel', 'expense_claims']) {
    await db.schema
      .alterTable(table)
      .addColumn('speaker_id', 'text', (c) => c.references('speakers.id').onDelete('set null'))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('crew_member_id', 'text', (c) => c.references('crew_members.id').onDelete('set null'))
      .execute();
    await db.schema
      .createIndex(`${table}_event_change`)
      .on(table)
      .columns(['event_id', 'change_txn', 'change_seq'])
      .execute();
    await db.schema.createIndex(`${table}_speaker`).on(table).column('speaker_id').execute();
    await db.schema.createIndex(`${table}_crew_member`).on(table).column('crew_member_id').execute();
  }
  await db.schema
    .alterTable('travel')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('booked').check(sql`"status" in ('booked', 'cancelled')`),
    )
    .execute();
}
