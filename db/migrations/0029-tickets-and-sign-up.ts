// From sign-up to the door (issue 27): every ticket gets a code of its own (the credential behind
// its QR code and its page /t/{code}), tickets already issued get one now, and an event gets its
// sign-up settings: whether its public page takes registrations, what a buyer paying by bank
// transfer is told, and whether attendees are sent e-mail. An event without a row has the defaults.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// As core/platform/ticket-codes.ts makes them, frozen here as a migration must be.
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const newTicketCode = () => Array.from(randomBytes(26), (b) => alphabet[b & 31]).join('');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('attendees').addColumn('ticket_code', 'text').execute();
  for (;;) {
    const rows = await db
      .selectFrom('attendees')
      .select('id')
      .where('ticket_code', 'is', null)
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows)
      await db
        .updateTable('attendees')
        .set({ ticket_code: newTicketCode() })
        .where('id', '=', row.id)
        .execute();
  }
  await db.schema
    .createIndex('attendees_ticket_code')
    .on('attendees')
    .column('ticket_code')
    .unique()
    .execute();
  await db.schema
    .createTable('event_sign_up')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('public_form', 'integer', (c) => c.notNull().defaultTo(1).check(sql`"public_form" in (0, 1)`))
    .addColumn('payment_instructions', 'text')
    .addColumn('send_emails', 'integer', (c) => c.notNull().defaultTo(1).check(sql`"send_emails" in (0, 1)`))
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .execute();
}
