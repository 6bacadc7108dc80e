// Costs that grow no faster than the data (issue 29): indexes for reads that walked an event's rows.
//
// updatedSince: a list pages oldest change first through its (scope, change_txn, position) index and
// filters the last-change time row by row, so "what changed since a moment ago" walked nearly every
// row. With (scope, last-change time) the first page finds where the changes since that moment begin
// (core/platform/pipeline/paging.ts) and the list index is read from there: a range, not a walk.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

/** Every list that pages oldest change first with updatedSince: its scope and last-change column. */
const changedSince: [name: string, table: string, columns: string[]][] = [
  ['events_workspace_updated', 'events', ['workspace_id', 'updated_utc']],
  ['ticket_types_event_updated', 'ticket_types', ['event_id', 'updated_utc']],
  ['add_ons_event_updated', 'add_ons', ['event_id', 'updated_utc']],
  ['discount_codes_event_updated', 'discount_codes', ['event_id', 'updated_utc']],
  ['orders_event_updated', 'orders', ['event_id', 'updated_utc']],
  ['attendees_event_updated', 'attendees', ['event_id', 'updated_utc']],
  ['rooms_event_updated', 'rooms', ['event_id', 'updated_utc']],
  ['tracks_event_updated', 'tracks', ['event_id', 'updated_utc']],
  ['speakers_event_updated', 'speakers', ['event_id', 'updated_utc']],
  ['sessions_event_updated', 'sessions', ['event_id', 'updated_utc']],
  ['passes_workspace_updated', 'passes', ['workspace_id', 'updated_utc']],
  ['pass_holders_pass_updated', 'pass_holders', ['pass_id', 'updated_utc']],
  ['communities_workspace_updated', 'communities', ['workspace_id', 'updated_utc']],
  ['community_members_community_updated', 'community_members', ['community_id', 'updated_utc']],
  ['crew_members_event_updated', 'crew_members', ['event_id', 'updated_utc']],
  ['surveys_event_updated', 'surveys', ['event_id', 'updated_utc']],
  ['budget_lines_event_updated', 'budget_lines', ['event_id', 'updated_utc']],
  ['submissions_event_updated', 'submissions', ['event_id', 'updated_utc']],
  ['submission_reviews_submission_updated', 'submission_reviews', ['submission_id', 'updated_utc']],
  ['share_links_event_updated', 'share_links', ['event_id', 'updated_utc']],
  ['stays_event_updated', 'stays', ['event_id', 'updated_utc']],
  ['travel_event_updated', 'travel', ['event_id', 'updated_utc']],
  ['expense_claims_event_updated', 'expense_claims', ['event_id', 'updated_utc']],
  ['mail_messages_event_updated', 'mail_messages', ['event_id', 'updated_utc']],
  ['check_ins_event_recorded', 'check_ins', ['event_id', 'recorded_utc']],
  ['deliveries_target_updated', 'deliveries', ['target_kind', 'target_id', 'updated_utc']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of changedSince) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
