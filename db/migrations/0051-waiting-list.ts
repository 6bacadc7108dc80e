// A waiting list per ticket type (issue 52, item 4). A ticket type opts in (waiting_list); when it
// is sold out the public page takes names for it. An entry waits in join order (position: when it joined, in milliseconds, then its time-ordered id); when a
// place comes free the next in line is offered it: the entry holds that place (the type's taken
// count includes it) until it is taken up or the offer runs out (offer_expires_utc). The link the
// offer e-mail carries is kept only as a hash (offer_token_hash), like an API key's secret. The
// names and the address are personal data: erasure nulls them (erased). Each event says how long an
// offer holds its place (event_sign_up.waiting_list_offer_hours, 48 by default); the offer e-mail
// joins the mail queue's fixed list of causes.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { addChangeTxn } from '../change-feed-schema';
import { rebuildTable, withForeignKeysOff } from '../rebuild-table';

const causeKinds = [
  'ticketIssued',
  'ticketCancelled',
  'transferInstructions',
  'ticketResent',
  'invoiceIssued',
  'creditNoteIssued',
  'documentSent',
  // 0050's, for orders waiting for approval: the list is whole each time it is made again.
  'requestReceived',
  'requestDeclined',
  'waitingListOffer',
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ticket_types')
    .addColumn('waiting_list', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`"waiting_list" in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('event_sign_up')
    .addColumn('waiting_list_offer_hours', 'integer', (c) =>
      c.notNull().defaultTo(48).check(sql`waiting_list_offer_hours between 1 and 720`),
    )
    .execute();
  await createEntries(db);
  await withForeignKeysOff(
    db,
    (trx) =>
      rebuildTable(trx, 'mail_messages', {
        // 0048 made the list a named check of the table: it goes, and comes back with the new cause.
        dropChecks: ['mail_messages_cause_kind'],
        checks: { cause_kind: `"cause_kind" in (${causeKinds.map((k) => `'${k}'`).join(', ')})` },
      }),
    ['mail_messages'],
  );
}

async function createEntries(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('waiting_list_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'text', (c) => c.notNull().references('ticket_types.id').onDelete('cascade'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('consent_utc', 'text')
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`"status" in ('waiting', 'offered', 'accepted', 'expired', 'removed')`),
    )
    .addColumn('offer_token_hash', 'text')
    .addColumn('offered_utc', 'text')
    .addColumn('offer_expires_utc', 'text')
    .addColumn('order_id', 'text')
    .addColumn('erased', 'integer', (c) => c.notNull().defaultTo(0).check(sql`"erased" in (0, 1)`))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('updated_utc', 'text', (c) => c.notNull())
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .execute();
  await addChangeTxn(db, 'waiting_list_entries', true);
  await db.schema
    .createIndex('waiting_list_entries_line')
    .on('waiting_list_entries')
    .columns(['ticket_type_id', 'status', 'position'])
    .execute();
  await db.schema
    .createIndex('waiting_list_entries_event_change')
    .on('waiting_list_entries')
    .columns(['event_id', 'change_txn', 'change_seq'])
    .execute();
  await db.schema
    .createIndex('waiting_list_entries_token')
    .on('waiting_list_entries')
    .column('offer_token_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('waiting_list_entries_email')
    .on('waiting_list_entries')
    .columns(['workspace_id', 'email'])
    .execute();
  // One place in line per address and type: joining again finds the entry already there.
  await sql`create unique index waiting_list_entries_once on waiting_list_entries (ticket_type_id, email) where status in ('waiting', 'offered')`.execute(
    db,
  );
  // What the minute's job looks for: offers that ran out.
  await sql`create index waiting_list_entries_offers on waiting_list_entries (offer_expires_utc) where status = 'offered'`.execute(
    db,
  );
}
