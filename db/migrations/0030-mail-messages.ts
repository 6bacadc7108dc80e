// E-mail to attendees (issue 27): one row per message, queued in the transaction of its cause (a
// ticket issued or cancelled, an order awaiting a transfer) and sent by the mail sender with the
// webhook deliveries' guarantees: claimed by one process at a time, tried again on the retry
// schedule, never queued twice for one cause (cause_kind, cause_id). The recipient and the body
// are personal data: erasure nulls them and cancels what was still queued.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { addChangeTxn } from '../change-feed-schema';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attendee_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('cause_kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`"cause_kind" in ('ticketIssued', 'ticketCancelled', 'transferInstructions', 'ticketResent')`,
        ),
    )
    .addColumn('cause_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text')
    .addColumn('html_body', 'text')
    .addColumn('attachments', 'text')
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`"state" in ('queued', 'sending', 'sent', 'failed', 'cancelled')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0).check(sql`attempts >= 0`))
    .addColumn('next_attempt_utc', 'text')
    .addColumn('claimed_until_utc', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_utc', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await addChangeTxn(db, 'mail_messages', true);
  await db.schema
    .createIndex('mail_messages_cause')
    .on('mail_messages')
    .columns(['cause_kind', 'cause_id'])
    .unique()
    .execute();
  // What the sender looks for: queued and due, or being sent under a claim that may have run out.
  await sql`create index mail_messages_due on mail_messages (next_attempt_utc) where state in ('queued', 'sending')`.execute(
    db,
  );
  await db.schema
    .createIndex('mail_messages_event_change')
    .on('mail_messages')
    .columns(['event_id', 'change_txn', 'change_seq'])
    .execute();
  await db.schema.createIndex('mail_messages_attendee').on('mail_messages').column('attendee_id').execute();
  await db.schema
    .createIndex('mail_messages_recipient')
    .on('mail_messages')
    .columns(['workspace_id', 'recipient'])
    .execute();
}
