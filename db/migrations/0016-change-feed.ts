// A change feed for many writers (db/sequence.ts): every row a list pages "oldest change first"
// carries the transaction that last wrote it (change_txn, db/change-feed-schema.ts), and lists
// order by (change_txn, position). The list indexes take the new column before the position.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';
import { addChangeTxn, createChangeTxnStamp } from '../change-feed-schema';

/** Tables whose rows change and carry change_seq, as they were at this migration (db/changing-tables.ts may grow; a migration keeps its own list), and webhooks. */
const changing = [
  'events',
  'ticket_types',
  'add_ons',
  'discount_codes',
  'orders',
  'attendees',
  'rooms',
  'tracks',
  'speakers',
  'sessions',
  'doors',
  'passes',
  'pass_holders',
  'sponsor_levels',
  'sponsors',
  'leads',
  'submissions',
  'submission_speakers',
  'sharers',
  'communities',
  'community_members',
  'crew_members',
  'shifts',
  'surveys',
  'invoices',
  'budget_lines',
  'stays',
  'travel',
  'expense_claims',
  'certificates',
  'published_content',
  'webhooks',
];

/** Tables listed in the order rows were added (their key is the position): stamped on insert only. */
const appended = ['check_ins', 'deliveries'];

/** Every index a list pages by, with change_txn before its position column. */
const listIndexes: [name: string, table: string, columns: string[]][] = [
  ['events_workspace_change', 'events', ['workspace_id', 'change_txn', 'change_seq']],
  ['ticket_types_event_change', 'ticket_types', ['event_id', 'change_txn', 'change_seq']],
  ['add_ons_event_change', 'add_ons', ['event_id', 'change_txn', 'change_seq']],
  ['discount_codes_event_change', 'discount_codes', ['event_id', 'change_txn', 'change_seq']],
  ['orders_event_change', 'orders', ['event_id', 'change_txn', 'change_seq']],
  ['attendees_event_change', 'attendees', ['event_id', 'change_txn', 'change_seq']],
  ['rooms_event_change', 'rooms', ['event_id', 'change_txn', 'change_seq']],
  ['tracks_event_change', 'tracks', ['event_id', 'change_txn', 'change_seq']],
  ['speakers_event_change', 'speakers', ['event_id', 'change_txn', 'change_seq']],
  ['sessions_event_change', 'sessions', ['event_id', 'change_txn', 'change_seq']],
  ['passes_workspace_change', 'passes', ['workspace_id', 'change_txn', 'change_seq']],
  ['pass_holders_pass_change', 'pass_holders', ['pass_id', 'change_txn', 'change_seq']],
  ['communities_workspace', 'communities', ['workspace_id', 'change_txn', 'change_seq']],
  ['community_members_list', 'community_members', ['community_id', 'change_txn', 'change_seq']],
  ['crew_members_list', 'crew_members', ['event_id', 'change_txn', 'change_seq']],
  ['surveys_event', 'surveys', ['event_id', 'change_txn', 'change_seq']],
  ['budget_lines_event', 'budget_lines', ['event_id', 'change_txn', 'change_seq']],
  ['submissions_event_change', 'submissions', ['event_id', 'change_txn', 'change_seq']],
  ['submissions_event_status_change', 'submissions', ['event_id', 'status', 'change_txn', 'change_seq']],
  ['check_ins_event_id', 'check_ins', ['event_id', 'change_txn', 'id']],
  ['deliveries_target', 'deliveries', ['target_kind', 'target_id', 'change_txn', 'id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  await createChangeTxnStamp(db);
  for (const table of changing) await addChangeTxn(db, table, true);
  for (const table of appended) await addChangeTxn(db, table, false);
  for (const [name, table, columns] of listIndexes) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
