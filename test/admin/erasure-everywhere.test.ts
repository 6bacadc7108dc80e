// Erasure reaches every copy of a person: every personal column of the
// schema is covered by a resource's declaration, and after `person erase` nothing in the database
// holds the person: not the rows (tickets, orders bought, speaker profile, pass holding), not the
// outbox messages of any type, not the answers kept for idempotent retries, not the activity log.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { attendeeLinks, personalResources } from '../../core/admin/personal-resources';
import { importFile } from '../../core/import/import-file';
import { erasedColumns } from '../../core/platform/pipeline/personal-data';
import { schemaColumns as schemaOf } from '../../db/dialect';
import { sampleId } from '../../db/sample/ids';
import { nextChangeSeq } from '../../db/sequence';
import { outbox, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Every column that is not personal, table by table. A new column must be put here or in a
 * resource's personal declaration (core/admin/personal-resources.ts), or this test fails.
 */
const notPersonal: Record<string, string[]> = {
  kysely_migration: ['name', 'timestamp'],
  kysely_migration_lock: ['id', 'is_locked'],
  workspaces: ['id', 'name', 'demonstration', 'created_utc'],
  // SQLite's search index (0032): copies of the attendee's values kept by triggers, so an erasure
  // empties them with the row ("leaves nothing of them" reads each; test/sales/attendee-search-index
  // reads the FTS5 pages). The pages and vocabulary hold trigrams, never a whole value.
  attendee_search_text: ['id', 'attendee_id', 'event_id', 'created_utc', 'terms', 'email'],
  attendee_search: ['terms'],
  attendee_search_data: ['id', 'block'],
  attendee_search_idx: ['segid', 'term', 'pgno'],
  attendee_search_docsize: ['id', 'sz'],
  attendee_search_config: ['k', 'v'],
  attendee_search_terms: ['term', 'doc', 'cnt'],
  // Its index of whole addresses (0043), the text's copy of the address as its content: secure-delete
  // takes an erased address out of its pages (test/sales/attendee-search-index reads them).
  attendee_addresses: ['email'],
  attendee_addresses_data: ['id', 'block'],
  attendee_addresses_idx: ['segid', 'term', 'pgno'],
  attendee_addresses_docsize: ['id', 'sz'],
  attendee_addresses_config: ['k', 'v'],
  // PostgreSQL's (0039): the same copies, one row an attendee, kept by triggers.
  attendee_search_values: ['attendee_id', 'event_id', 'terms'],
  api_keys: [
    'id',
    'workspace_id',
    'name',
    'prefix',
    'secret_hash',
    'scopes',
    'legacy_scopes',
    'rate_per_minute',
    'created_utc',
    'expires_utc',
    'revoked_utc',
    'last_used_utc',
    'ended_handled_utc',
  ],
  // The caller's address is the key holder's, not an attendee's.
  key_activity: [
    'id',
    'workspace_id',
    'api_key_id',
    'at_utc',
    'transport',
    'operation',
    'outcome',
    'status',
    'duration_ms',
    'source',
  ],
  events: [
    'id',
    'workspace_id',
    'name',
    'slug',
    'status',
    'online',
    'venue_name',
    'venue_address',
    'venue_city',
    'venue_country',
    'time_zone',
    'starts_utc',
    'ends_utc',
    'languages',
    'currency',
    'modules',
    'community_id',
    // Which payment methods the event offers (0047).
    'payment_methods',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  communities: [
    'id',
    'workspace_id',
    'slug',
    'name',
    'summary',
    'description',
    'city',
    'online',
    'languages',
    'time_zone',
    'join_policy',
    'status',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  community_members: [
    'id',
    'workspace_id',
    'community_id',
    'language',
    'status',
    'announcements',
    'reminders',
    'joined_utc',
    'approved_utc',
    'left_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  // Feedback never says who gave it.
  surveys: [
    'id',
    'workspace_id',
    'event_id',
    'title',
    'questions',
    'opens_utc',
    'closes_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  survey_responses: ['id', 'workspace_id', 'survey_id', 'answers', 'submitted_utc'],
  // A rating's comment is feedback like a survey's text answer: anonymous once the link is cut.
  session_ratings: ['id', 'workspace_id', 'event_id', 'session_id', 'stars', 'rated_utc', 'comment'],
  change_sequence: ['name', 'value'],
  key_generation: ['id', 'value'],
  ticket_types: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'description',
    'price_minor',
    'vat_rate',
    'capacity',
    'taken',
    'max_per_order',
    'visibility',
    'access_code',
    'requires_approval',
    'crew',
    'sales_start_utc',
    'sales_end_utc',
    'included_add_on_ids',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
    'retired_utc',
    'waiting_list',
  ],
  add_ons: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'description',
    'price_minor',
    'vat_rate',
    'capacity',
    'taken',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  discount_codes: [
    'id',
    'workspace_id',
    'event_id',
    'code',
    'code_key',
    'percent',
    'amount_minor',
    'max_uses',
    'used',
    'valid_from_utc',
    'valid_until_utc',
    'ticket_type_ids',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
    'active',
  ],
  questions: [
    'id',
    'workspace_id',
    'event_id',
    'label',
    'kind',
    'required',
    'options',
    'max_length',
    'ticket_type_ids',
    'sort_order',
  ],
  orders: [
    'id',
    'workspace_id',
    'event_id',
    'reference',
    'status',
    'language',
    'total_minor',
    'vat_minor',
    'currency',
    'payment_provider',
    'payment_method',
    'paid_utc',
    'source',
    'discount_code_id',
    'discount_minor',
    'refunded_minor',
    // A complimentary order's reason in the organiser's words ("speaker", "press"), not the buyer's.
    'payment_note',
    // Why a requested order was declined, in the organiser's words to the buyer.
    'decline_reason',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  attendees: [
    'id',
    'workspace_id',
    'event_id',
    'order_id',
    'ticket_type_id',
    'language',
    'status',
    // A credential, not a detail of the person: kept, as the ticket still admits them.
    'ticket_code',
    'price_minor',
    'checked_in_utc',
    'cancelled_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  attendee_add_ons: ['attendee_id', 'add_on_id', 'quantity'],
  rooms: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'capacity',
    'location',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  tracks: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'colour',
    'description',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  speakers: [
    'id',
    'workspace_id',
    'event_id',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  sessions: [
    'id',
    'workspace_id',
    'event_id',
    'title',
    'summary',
    'kind',
    'room_id',
    'track_id',
    'starts_utc',
    'ends_utc',
    'capacity',
    'language',
    'join_provider',
    'join_url',
    'speaker_ids',
    'draft',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  doors: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'kind',
    'main',
    'session_id',
    'capacity',
    'inside',
    'reentry',
    'ticket_type_ids',
    'add_on_ids',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  check_ins: [
    'id',
    'workspace_id',
    'event_id',
    'attendee_id',
    'door_id',
    'direction',
    'result',
    'admitted',
    'scanned_utc',
    'offline',
    'recorded_utc',
    'change_txn',
  ],
  door_presence: ['door_id', 'attendee_id', 'inside', 'first_in_utc', 'last_scan_utc'],
  // Counts only (migration 0033).
  ticket_totals: ['event_id', 'attendee_status', 'order_status', 'crew', 'checked_in', 'slot', 'n'],
  order_totals: ['event_id', 'status', 'slot', 'n', 'total_minor'],
  door_totals: ['door_id', 'slot', 'admitted', 'refused'],
  // Counts only (migration 0036).
  door_inside: ['door_id', 'slot', 'inside'],
  passes: [
    'id',
    'workspace_id',
    'kind',
    'community_id',
    'sales_event_id',
    'name',
    'description',
    'price_minor',
    'vat_rate',
    'currency',
    'capacity',
    'scope',
    'series_id',
    'from_date',
    'to_date',
    'sales_start_utc',
    'sales_end_utc',
    'refund_rule',
    'status',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  pass_events: ['pass_id', 'event_id', 'source'],
  pass_holders: [
    'id',
    'workspace_id',
    'pass_id',
    'order_id',
    'status',
    'ended_reason',
    'ended_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  pass_opt_outs: ['holder_id', 'event_id'],
  crew_members: [
    'id',
    'workspace_id',
    'event_id',
    'roles',
    'attendee_id',
    'invited_utc',
    'last_seen_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  shifts: [
    'id',
    'workspace_id',
    'event_id',
    'role',
    'place_kind',
    'place_id',
    'place_name',
    'starts_utc',
    'ends_utc',
    'needed',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  shift_assignments: ['shift_id', 'crew_member_id', 'created_utc'],
  // A document's own facts; the seller is the organiser, not a person erasure is about.
  invoices: [
    'id',
    'workspace_id',
    'event_id',
    'order_id',
    'kind',
    'series_no',
    'number',
    'corrects_id',
    'issued_utc',
    'total_minor',
    'vat_minor',
    'currency',
    'vat_currency',
    'vat_converted_minor',
    'erased',
    'seller',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  event_invoicing: [
    'event_id',
    'workspace_id',
    'enabled',
    'seller_name',
    'seller_address',
    'seller_vat_number',
    'seller_registration',
    'prefix',
    'footer',
    'vat_currency',
    'vat_rate',
    'updated_utc',
  ],
  event_sign_up: [
    'event_id',
    'workspace_id',
    'public_form',
    'payment_instructions',
    'send_emails',
    'waiting_list_offer_hours',
    'updated_utc',
  ],
  // The names and address are declared (core/waiting-list/waiting-personal.ts); the offer's token only as its hash.
  waiting_list_entries: [
    'id',
    'workspace_id',
    'event_id',
    'ticket_type_id',
    'language',
    'consent_utc',
    'position',
    'status',
    'offer_token_hash',
    'offered_utc',
    'offer_expires_utc',
    'order_id',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  // The recipient and bodies are declared (core/mail/mail-personal.ts); errors are kept without the address.
  mail_messages: [
    'id',
    'workspace_id',
    'event_id',
    'attendee_id',
    'order_id',
    'cause_kind',
    'cause_id',
    'message_id',
    'subject',
    'state',
    'attempts',
    'next_attempt_utc',
    'claimed_until_utc',
    'claimed_by',
    'last_error',
    'sent_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  // The fingerprint of the deployment's key (migration 0031): no person in it.
  deployment_keys: ['purpose', 'fingerprint', 'recorded_utc'],
  // A workspace's Stripe account and its secrets, encrypted (0047); connected_by names a key, not a person.
  stripe_connections: [
    'workspace_id',
    'account_id',
    'account_name',
    'mode',
    'secret_key_enc',
    'key_last4',
    'webhook_secret_enc',
    'connected_by',
    'connected_utc',
    'updated_utc',
  ],
  // Stripe's events by id and type only: their payloads (a buyer's e-mail among them) are not kept.
  stripe_events: [
    'workspace_id',
    'event_id',
    'type',
    'object_id',
    'livemode',
    'created_utc',
    'received_utc',
    'handled',
  ],
  // An order's Checkout session by Stripe's ids and its hold (0049): the buyer's details stay in Stripe.
  card_checkouts: [
    'order_id',
    'workspace_id',
    'session_id',
    'session_url',
    'hold_until_utc',
    'payment_intent_id',
    'created_utc',
  ],
  invoice_series: ['event_id', 'last_no'],
  invoice_lines: [
    'id',
    'invoice_id',
    'ticket_type_id',
    'add_on_id',
    'name',
    'quantity',
    'unit_price_minor',
    'vat_rate',
    'total_minor',
    'vat_minor',
    'sort',
  ],
  // The sign-in's records name the API key that signed in (its id), never a person.
  oauth_records: ['model', 'id', 'payload', 'grant_id', 'uid', 'expires_utc', 'consumed_utc'],
  // A key id or a source address with its window; a source address is not kept past its minute.
  rate_windows: ['key', 'started_ms', 'used'],
  // The import-only sources: what is arranged, not who for (their names and email are declared).
  stays: [
    'id',
    'workspace_id',
    'event_id',
    'attendee_id',
    // Links to the speaker or crew row, whose erasure reaches this one (0026); not personal itself.
    'speaker_id',
    'crew_member_id',
    'status',
    'hotel',
    'room',
    'check_in_date',
    'check_out_date',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  travel: [
    'id',
    'workspace_id',
    'event_id',
    'speaker_id',
    'crew_member_id',
    'status',
    'mode',
    'from_place',
    'to_place',
    'departs_utc',
    'arrives_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  expense_claims: [
    'id',
    'workspace_id',
    'event_id',
    'speaker_id',
    'crew_member_id',
    'category',
    'amount_minor',
    'currency',
    'status',
    'submitted_utc',
    'approved_utc',
    'paid_utc',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  certificates: [
    'id',
    'workspace_id',
    'event_id',
    'attendee_id',
    'kind',
    'issued_utc',
    'erased',
    'verification_code',
    'revoked_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  published_content: [
    'id',
    'workspace_id',
    'event_id',
    'kind',
    'title',
    'session_id',
    'url',
    'published_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  budget_lines: [
    'id',
    'workspace_id',
    'event_id',
    'category',
    'name',
    'kind',
    'budgeted_minor',
    'committed_minor',
    'actual_minor',
    'forecast_minor',
    'vat_rate',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  sponsor_levels: [
    'id',
    'workspace_id',
    'event_id',
    'name',
    'rank',
    'colour',
    'staff_allowance',
    'free_tickets',
    'lead_download',
    'lead_export_until',
    'discount_codes',
    'discount_percent',
    'logo_on_page',
    'logo_on_screens',
    'logo_on_badges',
    'sponsored_session',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  sponsors: [
    'id',
    'workspace_id',
    'event_id',
    'level_id',
    'name',
    'website',
    'logo_url',
    'description',
    'booth',
    'sort_order',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  // A lead's own facts; captured_by names the sponsor's staff member, not the visitor.
  leads: [
    'id',
    'workspace_id',
    'event_id',
    'sponsor_id',
    'attendee_id',
    'shared',
    'email_shared',
    'origin',
    'rating',
    'captured_by',
    'captured_utc',
    'attended_session_id',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  // A submission's own facts; its speakers' details are personal (declared), reviews name no one.
  submissions: [
    'id',
    'workspace_id',
    'event_id',
    'title',
    'abstract',
    'format',
    'track_id',
    'language',
    'status',
    'session_id',
    'submitted_utc',
    'decided_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  submission_speakers: [
    'id',
    'workspace_id',
    'submission_id',
    'sort_order',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  submission_status_changes: ['id', 'workspace_id', 'submission_id', 'status', 'at_utc'],
  // A review's reviewer_email is personal (declared); the comment is the reviewer's opinion of the talk.
  submission_reviews: [
    'id',
    'workspace_id',
    'submission_id',
    'score',
    'reviewed_utc',
    'comment',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  calls_for_speakers: [
    'event_id',
    'workspace_id',
    'opens_utc',
    'closes_utc',
    'formats',
    'track_ids',
    'created_utc',
    'updated_utc',
  ],
  // A sharer's name and email are personal (declared); links, clicks and attributions hold ids only.
  sharers: [
    'id',
    'workspace_id',
    'event_id',
    'kind',
    'attendee_id',
    'speaker_id',
    'sponsor_id',
    'erased',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  share_links: [
    'id',
    'workspace_id',
    'event_id',
    'sharer_id',
    'channel',
    'code',
    'shared_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'removed_utc',
    'change_txn',
  ],
  share_clicks: ['id', 'workspace_id', 'link_id', 'clicked_utc'],
  share_registrations: ['attendee_id', 'workspace_id', 'link_id', 'registered_utc'],
  // Receivers belong to the organiser's systems; a delivery points at its outbox message (which
  // erasure scrubs) and keeps a payload only for test messages, which hold no person.
  webhooks: [
    'id',
    'workspace_id',
    'url',
    'description',
    'event_types',
    'active',
    'disabled_reason',
    'secret_enc',
    'previous_secret_enc',
    'previous_secret_until_utc',
    'api_key_id',
    'created_by',
    'last_status',
    'last_delivery_utc',
    'created_utc',
    'updated_utc',
    'change_seq',
    'change_txn',
  ],
  hooks: [
    'id',
    'workspace_id',
    'api_key_id',
    'event_type',
    'event_id',
    'url',
    'client',
    'active',
    'created_utc',
  ],
  deliveries: [
    'id',
    'workspace_id',
    'outbox_id',
    'message_id',
    'type',
    'payload',
    'target_kind',
    'target_id',
    'state',
    'attempts',
    'next_attempt_utc',
    'claimed_until_utc',
    'last_status_code',
    'created_utc',
    'updated_utc',
    'change_txn',
    'claimed_by',
  ],
  delivery_attempts: [
    'id',
    'delivery_id',
    'attempt',
    'started_utc',
    'duration_ms',
    'status_code',
    'outcome',
    'error',
    'next_attempt_utc',
  ],
};

/**
 * Columns that keep copies of resources (messages, kept answers) or free text about them: erasure
 * scrubs the person out of them rather than nulling the column.
 */
const copiesScrubbed: Record<string, string[]> = {
  outbox: [
    'id',
    'message_id',
    'workspace_id',
    'event_id',
    'type',
    'payload',
    'created_utc',
    'dispatched_utc',
  ],
  idempotency_records: [
    'api_key_id',
    'idempotency_key',
    'workspace_id',
    'method',
    'path',
    'body_hash',
    'response_body',
    'created_utc',
    'expires_utc',
  ],
  workspace_activity: [
    'id',
    'workspace_id',
    'at_utc',
    'api_key_id',
    'actor_name',
    'action',
    'resource_type',
    'resource_id',
    'summary',
  ],
};

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Erasure everywhere', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

/** Every table with its column names. */
async function schemaColumns(): Promise<Map<string, string[]>> {
  const columns = await schemaOf(t.server.services.db);
  return new Map([...columns].map(([table, list]) => [table, list.map((c) => c.name)]));
}

describe('the declarations of personal data', () => {
  it('cover every personal column of the schema: each column is declared personal or known not to be', async () => {
    const declared = new Map<string, string[]>();
    for (const d of personalResources)
      declared.set(d.table, [...(declared.get(d.table) ?? []), ...erasedColumns(d)]);
    // A link to the person's ticket in a row that names no one else (a survey answer) is cut.
    for (const l of attendeeLinks) declared.set(l.table, [...(declared.get(l.table) ?? []), l.column]);
    for (const [table, columns] of await schemaColumns()) {
      const known = [
        ...(notPersonal[table] ?? []),
        ...(copiesScrubbed[table] ?? []),
        ...(declared.get(table) ?? []),
      ];
      for (const column of columns)
        expect(known, `${table}.${column} is neither declared personal nor listed as not personal`).toContain(
          column,
        );
      for (const column of declared.get(table) ?? [])
        expect(notPersonal[table] ?? [], `${table}.${column} is both personal and not`).not.toContain(column);
    }
  });

  it('name the columns that identify a person and the erased flag of each resource table', async () => {
    const columns = await schemaColumns();
    for (const d of personalResources) {
      expect(columns.get(d.table), d.table).toContain(d.emailColumn);
      expect(columns.get(d.table), d.table).toContain('erased');
      for (const column of erasedColumns(d))
        expect(columns.get(d.table), `${d.table}.${column}`).toContain(column);
    }
  });
});

describe('erasing a person', () => {
  const tag = Math.random().toString(36).slice(2, 8);
  const who = {
    firstName: `Zelfirst${tag}`,
    lastName: `Zellast${tag}`,
    email: `zelda.${tag}@example.org`,
    company: `Zelcorp${tag}`,
    jobTitle: `Zeljob${tag}`,
  };
  const needles = Object.values(who);
  let attendeeId: string;
  let registrationBody: Record<string, unknown>;

  async function whereTheyAppear(): Promise<string[]> {
    const db = t.server.services.db;
    const found: string[] = [];
    for (const [table, columns] of await schemaColumns()) {
      for (const column of columns) {
        for (const needle of needles) {
          const hit = await sql<{ n: number }>`
            select count(*) as n from ${sql.table(table)} where cast(${sql.ref(column)} as text) like ${`%${needle}%`}`.execute(
            db,
          );
          if (Number(hit.rows[0]!.n) > 0) found.push(`${table}.${column} holds ${needle}`);
        }
      }
    }
    return found;
  }

  beforeAll(async () => {
    const ids = sampleIds(workspaceId);
    const summit = ids.event('summit');
    const db = t.server.services.db;
    // A ticket (with its kept idempotent answer and attendee.registered), a correction
    // (attendee.updated), a scan (checkin.created, kept answer), as buyer of the order.
    registrationBody = {
      attendees: [
        {
          ticketTypeId: ids.ticketType('summit', 'standard'),
          firstName: who.firstName,
          lastName: who.lastName,
          email: who.email,
          company: who.company,
        },
      ],
    };
    const registered = await t.api(`/events/${summit}/attendees`, {
      key,
      method: 'POST',
      body: registrationBody,
      headers: { 'idempotency-key': `erase-${tag}` },
    });
    expect(registered.status).toBe(201);
    attendeeId = registered.body.attendees[0].attendeeId;
    const corrected = await t.api(`/events/${summit}/attendees/${attendeeId}`, {
      key,
      method: 'PATCH',
      body: { jobTitle: who.jobTitle },
    });
    expect(corrected.status).toBe(200);
    const scanned = await t.api(`/events/${summit}/attendees/${attendeeId}/check-in`, {
      key,
      method: 'POST',
      headers: { 'idempotency-key': `erase-scan-${tag}` },
    });
    expect(scanned.body.result).toBe('welcome');
    // They answer a survey and rate a session (kept linked to them only to take one of each).
    const surveyId = sampleId(workspaceId, 'survey/summit-feedback');
    await db
      .updateTable('surveys')
      .set({ opens_utc: null, closes_utc: null })
      .where('id', '=', surveyId)
      .execute();
    const answered = await t.api(`/events/${summit}/surveys/${surveyId}/answers`, {
      key,
      method: 'POST',
      body: { attendeeId, answers: { overall: 5 } },
      headers: { 'idempotency-key': `erase-answer-${tag}` },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    const session = (await t.api(`/events/${summit}/sessions`, { key })).body.data[0].sessionId;
    const rated = await t.api(`/events/${summit}/sessions/${session}/ratings`, {
      key,
      method: 'POST',
      body: { attendeeId, stars: 4, comment: 'Good.' },
    });
    expect(rated.status, JSON.stringify(rated.body)).toBe(201);
    // The same person speaks at the summit and holds a pass: a speaker the sample arranged no stay,
    // journey or claim for, so the counts below are the rows this test gives them.
    const arranged = (table: 'stays' | 'travel' | 'expense_claims') =>
      db.selectFrom(table).select('speaker_id').where('speaker_id', 'is not', null);
    const speaker = await db
      .selectFrom('speakers')
      .select('id')
      .where('event_id', '=', summit)
      .where('id', 'not in', arranged('stays') as never)
      .where('id', 'not in', arranged('travel') as never)
      .where('id', 'not in', arranged('expense_claims') as never)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('speakers')
      .set({ name: `${who.firstName} ${who.lastName}`, email: who.email, company: who.company })
      .where('id', '=', speaker.id)
      .execute();
    const holder = await db
      .selectFrom('pass_holders')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('pass_holders')
      .set({ first_name: who.firstName, last_name: who.lastName, email: who.email })
      .where('id', '=', holder.id)
      .execute();
    // Two sponsors' leads of them: one shared without the email (tied to them by their ticket only),
    // one that holds only their email; the staff's notes name them.
    for (const lead of [
      { sponsor: 'fjord', attendee: attendeeId, email: null },
      { sponsor: 'polar', attendee: null, email: who.email },
    ]) {
      const now = new Date().toISOString();
      await db
        .insertInto('leads')
        .values({
          id: sampleId(workspaceId, `test-lead/${tag}/${lead.sponsor}`),
          workspace_id: workspaceId,
          event_id: summit,
          sponsor_id: sampleId(workspaceId, `sponsor/summit/${lead.sponsor}`),
          attendee_id: lead.attendee,
          shared: 1,
          email_shared: lead.email ? 1 : 0,
          first_name: who.firstName,
          last_name: who.lastName,
          company: who.company,
          job_title: who.jobTitle,
          email: lead.email,
          answers: JSON.stringify({ interest: who.company }),
          origin: 'booth',
          rating: 3,
          note: `Met ${who.firstName} at the stand.`,
          captured_by: 'Booth staff',
          captured_utc: now,
          attended_session_id: null,
          erased: 0,
          created_utc: now,
          updated_utc: now,
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
    // They volunteer at the summit too: a crew member tied to them by their ticket only (no email).
    const volunteered = new Date().toISOString();
    await db
      .insertInto('crew_members')
      .values({
        id: sampleId(workspaceId, `test-crew/${tag}`),
        workspace_id: workspaceId,
        event_id: summit,
        name: `${who.firstName} ${who.lastName}`,
        email: null,
        phone: `+47 ${who.lastName}`,
        roles: '["door"]',
        attendee_id: attendeeId,
        invited_utc: volunteered,
        last_seen_utc: null,
        erased: 0,
        created_utc: volunteered,
        updated_utc: volunteered,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // The invoice of the order they bought names them as buyer, with their company's details.
    const order = await db
      .selectFrom('attendees')
      .innerJoin('orders', 'orders.id', 'attendees.order_id')
      .select(['orders.id', 'orders.total_minor', 'orders.vat_minor', 'orders.currency'])
      .where('attendees.id', '=', attendeeId)
      .executeTakeFirstOrThrow();
    const issued = new Date().toISOString();
    // They paid it by transfer: the payment's reference names them.
    await db
      .updateTable('orders')
      .set({
        payment_method: 'transfer',
        payment_reference: `Transfer from ${who.firstName} ${who.lastName}`,
      })
      .where('id', '=', order.id)
      .execute();
    await db
      .insertInto('invoices')
      .values({
        id: sampleId(workspaceId, `test-invoice/${tag}`),
        workspace_id: workspaceId,
        event_id: summit,
        order_id: order.id,
        kind: 'invoice',
        series_no: 9000,
        number: `TEST-${tag}`,
        corrects_id: null,
        issued_utc: issued,
        total_minor: order.total_minor,
        vat_minor: order.vat_minor,
        currency: order.currency,
        vat_currency: null,
        vat_converted_minor: null,
        buyer_name: `${who.firstName} ${who.lastName}`,
        buyer_email: who.email,
        buyer_company: who.company,
        buyer_address: `${who.lastName}veien 1, Oslo`,
        buyer_vat_number: `NO${who.lastName}MVA`,
        buyer_reference: `PO ${who.jobTitle}`,
        erased: 0,
        seller: null,
        created_utc: issued,
        updated_utc: issued,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // They proposed a talk (found by email) and share the summit with their link (found by ticket).
    const proposed = new Date().toISOString();
    const submissionId = sampleId(workspaceId, `test-submission/${tag}`);
    await db
      .insertInto('submissions')
      .values({
        id: submissionId,
        workspace_id: workspaceId,
        event_id: summit,
        title: 'A talk',
        abstract: 'About products.',
        format: 'talk',
        track_id: null,
        language: 'en',
        status: 'submitted',
        session_id: null,
        submitted_utc: proposed,
        decided_utc: null,
        created_utc: proposed,
        updated_utc: proposed,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    await db
      .insertInto('submission_speakers')
      .values({
        id: sampleId(workspaceId, `test-submission/${tag}/speaker`),
        workspace_id: workspaceId,
        submission_id: submissionId,
        sort_order: 1,
        name: `${who.firstName} ${who.lastName}`,
        email: who.email,
        company: who.company,
        bio: `${who.jobTitle} at ${who.company}.`,
        erased: 0,
        created_utc: proposed,
        updated_utc: proposed,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // They also reviewed a submission: their address as reviewer goes, the score stays.
    await db
      .insertInto('submission_reviews')
      .values({
        id: sampleId(workspaceId, `test-submission/${tag}/review`),
        workspace_id: workspaceId,
        submission_id: submissionId,
        score: 4,
        reviewed_utc: proposed,
        reviewer_email: who.email,
        comment: 'Clear and useful.',
        created_utc: proposed,
        updated_utc: proposed,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    await db
      .insertInto('sharers')
      .values({
        id: sampleId(workspaceId, `test-sharer/${tag}`),
        workspace_id: workspaceId,
        event_id: summit,
        kind: 'attendee',
        attendee_id: attendeeId,
        speaker_id: null,
        sponsor_id: null,
        name: `${who.firstName} ${who.lastName}`,
        email: null,
        erased: 0,
        created_utc: proposed,
        updated_utc: proposed,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // A stay, a journey, an expense claim and a certificate of theirs, which come in by import only
    // (with their stay.*, travel.changed, claim.* and certificate.issued messages).
    const person = { firstName: who.firstName, lastName: who.lastName, email: who.email };
    await importFile(
      await operatorContext(t.server.services, workspaceId),
      JSON.stringify({
        format: 'tessera-import',
        version: 1,
        events: [
          {
            key: 'erasure',
            name: 'Erasure retreat',
            slug: `erasure-${tag}`,
            timeZone: 'Europe/Oslo',
            startsUtc: '2027-03-01T08:00:00Z',
            endsUtc: '2027-03-02T16:00:00Z',
            currency: 'EUR',
            ticketTypes: [{ key: 'general', name: 'General' }],
            orders: [
              {
                key: 'o1',
                status: 'free',
                buyer: { name: `${who.firstName} ${who.lastName}`, email: who.email, company: null },
                attendees: [{ key: 'them', ticketType: 'general', ...person }],
              },
            ],
            stays: [
              {
                key: 's',
                attendee: 'them',
                ...person,
                checkInDate: '2027-02-28',
                checkOutDate: '2027-03-02',
              },
            ],
            travel: [
              {
                key: 't',
                ...person,
                mode: 'train',
                from: 'Oslo',
                to: 'Bergen',
                departsUtc: '2027-02-28T08:00:00Z',
                arrivesUtc: '2027-02-28T15:00:00Z',
                reference: `REF${tag}`,
              },
            ],
            expenseClaims: [
              {
                key: 'c',
                ...person,
                category: 'travel',
                amount: 120.5,
                submittedUtc: '2027-03-03T10:00:00Z',
              },
            ],
            certificates: [
              {
                key: 'z',
                attendee: 'them',
                firstName: who.firstName,
                lastName: who.lastName,
                issuedUtc: '2027-03-03T10:00:00Z',
              },
            ],
          },
        ],
      }),
    );
    // In line for a ticket type's waiting list.
    const standard = ids.ticketType('summit', 'standard');
    const listed = await t.api(`/events/${summit}/ticket-types/${standard}`, {
      key,
      method: 'PATCH',
      body: { waitingList: true },
    });
    expect(listed.status).toBe(200);
    const waiting = await t.api(`/events/${summit}/waiting-list`, {
      key,
      method: 'POST',
      body: { ticketTypeId: standard, firstName: who.firstName, lastName: who.lastName, email: who.email },
    });
    expect(waiting.status).toBe(201);
    // Their ticket's confirmation, still queued (a sample workspace queues none by itself).
    const queuedUtc = new Date().toISOString();
    await db
      .insertInto('mail_messages')
      .values({
        id: sampleId(workspaceId, `test-mail/${tag}`),
        workspace_id: workspaceId,
        event_id: ids.event('summit'),
        attendee_id: attendeeId,
        order_id: null,
        cause_kind: 'ticketIssued',
        cause_id: attendeeId,
        message_id: `<ticketIssued.${attendeeId}@tessera.test>`,
        recipient: who.email,
        subject: 'Your ticket for Summit',
        text_body: `Hello ${who.firstName} ${who.lastName}`,
        html_body: `<p>Hello ${who.firstName} ${who.lastName}</p>`,
        attachments: JSON.stringify([{ filename: 'ticket.ics', content: `For: ${who.firstName}` }]),
        state: 'queued',
        attempts: 0,
        next_attempt_utc: queuedUtc,
        claimed_until_utc: null,
        claimed_by: null,
        last_error: null,
        sent_utc: null,
        erased: 0,
        created_utc: queuedUtc,
        updated_utc: queuedUtc,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    // An activity entry about them whose summary names them.
    await db
      .insertInto('workspace_activity')
      .values({
        workspace_id: workspaceId,
        at_utc: new Date().toISOString(),
        api_key_id: null,
        actor_name: 'badge desk',
        action: 'note',
        resource_type: 'attendee',
        resource_id: attendeeId,
        summary: `Printed a badge for ${who.firstName} ${who.lastName}`,
      })
      .execute();
    expect((await whereTheyAppear()).length).toBeGreaterThan(8);
  });

  it('leaves nothing of them anywhere in the database', async () => {
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      email: who.email,
    });
    // The second ticket and order are those of the imported event.
    expect(counts).toMatchObject({
      attendees: 2,
      orders: 2,
      passHolders: 1,
      speakers: 1,
      communityMembers: 0,
    });
    expect(counts.leads).toBe(2);
    expect(counts.crewMembers).toBe(1);
    expect(counts.submissionSpeakers).toBe(1);
    expect(counts.sharers).toBe(1);
    expect(counts.invoices).toBe(1);
    expect(counts).toMatchObject({ stays: 1, travel: 1, expenseClaims: 1, certificates: 1 });
    expect(counts).toMatchObject({ surveyResponses: 1, sessionRatings: 1 });
    expect(counts.mailMessages).toBe(1);
    expect(await whereTheyAppear()).toEqual([]);
    // Their queued e-mail is cancelled: it never goes out.
    const mail = await t.server.services.db
      .selectFrom('mail_messages')
      .select(['state', 'recipient', 'erased'])
      .where('attendee_id', '=', attendeeId)
      .execute();
    expect(mail).toEqual([{ state: 'cancelled', recipient: null, erased: 1 }]);
    // Their answer and rating stay, counted, but no row links them to the ticket any more.
    for (const l of attendeeLinks) {
      const linked = await sql<{ n: number }>`
        select count(*) as n from ${sql.table(l.table)} where ${sql.ref(l.column)} = ${attendeeId}`.execute(
        t.server.services.db,
      );
      expect(Number(linked.rows[0]!.n), l.table).toBe(0);
    }
  });

  it('marks each of their rows erased, with every declared column null', async () => {
    const db = t.server.services.db;
    for (const d of personalResources) {
      const rows = await sql<Record<string, unknown>>`
        select * from ${sql.table(d.table)} where workspace_id = ${workspaceId} and erased = 1`.execute(db);
      expect(rows.rows.length, d.table).toBeGreaterThan(0);
      for (const row of rows.rows)
        for (const column of erasedColumns(d)) expect(row[column], `${d.table}.${column}`).toBeNull();
    }
  });

  it('scrubs the messages of every type that carried them, and says erased there', async () => {
    const messages = (await outbox(t, workspaceId)).filter((m) =>
      JSON.stringify(m.payload).includes(attendeeId),
    );
    const types = new Set(messages.map((m) => m.type));
    for (const type of ['attendee.registered', 'attendee.updated', 'checkin.created', 'attendee.erased'])
      expect(types).toContain(type);
    for (const m of messages) {
      expect(m.payload.data.attendee).toMatchObject({
        firstName: null,
        email: null,
        erased: true,
        personalData: 'erased',
      });
    }
  });

  it('replays the kept answer of an idempotent retry without them', async () => {
    const summit = sampleIds(workspaceId).event('summit');
    const replay = await t.api(`/events/${summit}/attendees`, {
      key,
      method: 'POST',
      body: registrationBody,
      headers: { 'idempotency-key': `erase-${tag}` },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.attendees[0]).toMatchObject({
      attendeeId,
      firstName: null,
      lastName: null,
      email: null,
      erased: true,
      personalData: 'erased',
    });
  });

  it('empties the summaries of activity-log entries about them', async () => {
    const entries = await t.server.services.db
      .selectFrom('workspace_activity')
      .select(['action', 'summary'])
      .where('resource_id', '=', attendeeId)
      .execute();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.summary, e.action).toBeNull();
  });
});
