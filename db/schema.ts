// The Kysely `Database` interface: one table type per table, snake_case columns.
// Times are ISO 8601 UTC strings (sortable as text); booleans are 0/1; JSON is text. Columns with
// a fixed set of values are typed with it (db/values.ts); CHECK constraints hold them to it.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type {
  AttemptOutcome,
  AttendeeStatus,
  BudgetLineKind,
  CertificateKind,
  ClaimStatus,
  CommunityStatus,
  ContentKind,
  DeliveryResult,
  DeliveryState,
  DeliveryTargetKind,
  DoorKind,
  EventStatus,
  Flag,
  HolderEndedReason,
  HolderStatus,
  HookClient,
  InvoiceKind,
  JoinPolicy,
  LeadOrigin,
  MailCauseKind,
  MailState,
  MemberStatus,
  OrderSource,
  OrderStatus,
  PassEventSource,
  PassKind,
  PassRefundRule,
  PassScope,
  PassStatus,
  PaymentMethodsOffered,
  QuestionKind,
  ScanDirection,
  ScanResult,
  SessionKind,
  ShareChannel,
  SharerKind,
  ShiftPlaceKind,
  StayStatus,
  StripeMode,
  SubmissionFormat,
  SubmissionStatus,
  TicketVisibility,
  Transport,
  TravelMode,
  TravelStatus,
  WaitingStatus,
  WebhookDisabledReason,
  WebhookEventType,
} from './values';

export interface WorkspacesTable {
  id: string;
  name: string;
  demonstration: Flag;
  created_utc: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  /** JSON array of scope names, already rewritten when the key is a legacy one. */
  scopes: string;
  /** JSON array of the scopes the key was made with before per-area scopes existed; null otherwise. */
  legacy_scopes: string | null;
  rate_per_minute: number | null;
  created_utc: string;
  expires_utc: string | null;
  revoked_utc: string | null;
  last_used_utc: string | null;
  /** When the subscriptions and endpoints of this ended (revoked or expired) key were dealt with. */
  ended_handled_utc: string | null;
}

export interface KeyActivityTable {
  id: Generated<number>;
  workspace_id: string;
  api_key_id: string;
  at_utc: string;
  transport: Transport;
  operation: string;
  outcome: string;
  status: number;
  duration_ms: number;
  source: string | null;
}

export interface WorkspaceActivityTable {
  id: Generated<number>;
  workspace_id: string;
  at_utc: string;
  api_key_id: string | null;
  actor_name: string;
  action: string;
  resource_type: string;
  resource_id: string;
  summary: string | null;
}

export interface IdempotencyRecordsTable {
  api_key_id: string;
  idempotency_key: string;
  /** So erasure finds the answers of a workspace that hold a person's data. */
  workspace_id: string;
  method: string;
  path: string;
  body_hash: string;
  /** The first answer (data or refusal), JSON; written in the transaction of the change. */
  response_body: string;
  created_utc: string;
  expires_utc: string;
}

export interface EventsTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  status: EventStatus;
  online: Flag;
  venue_name: string | null;
  venue_address: string | null;
  venue_city: string | null;
  venue_country: string | null;
  time_zone: string;
  starts_utc: string;
  ends_utc: string;
  /** JSON array of language tags, the first is the default. */
  languages: string;
  currency: string;
  /** JSON object module -> boolean; a module absent from it is on. */
  modules: string;
  /** The community whose meetup it is (optional when inserting: none). */
  community_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Which ways of paying its public page offers (0047; default transfer): card needs the workspace's Stripe connection. */
  payment_methods: ColumnType<
    PaymentMethodsOffered,
    PaymentMethodsOffered | undefined,
    PaymentMethodsOffered
  >;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface CommunitiesTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  summary: string | null;
  /** Markdown. */
  description: string | null;
  city: string | null;
  online: Flag;
  /** JSON array of language tags. */
  languages: string;
  time_zone: string;
  join_policy: JoinPolicy;
  status: CommunityStatus;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface CommunityMembersTable {
  id: string;
  workspace_id: string;
  community_id: string;
  name: string | null;
  email: string | null;
  language: string;
  status: MemberStatus;
  announcements: Flag;
  reminders: Flag;
  joined_utc: string;
  approved_utc: string | null;
  left_utc: string | null;
  erased: Flag;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface SurveysTable {
  id: string;
  workspace_id: string;
  event_id: string;
  /** JSON object: language -> title. */
  title: string;
  /** JSON array of questions (core/surveys/survey-questions.ts). */
  questions: string;
  opens_utc: string | null;
  closes_utc: string | null;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface SurveyResponsesTable {
  id: string;
  workspace_id: string;
  survey_id: string;
  /** JSON object: question id -> answer. */
  answers: string;
  submitted_utc: string;
  /** Who answered, only to take one answer each; never shown, null once erased or when imported. */
  attendee_id: string | null;
}

export interface SessionRatingsTable {
  id: string;
  workspace_id: string;
  event_id: string;
  session_id: string;
  stars: number;
  rated_utc: string;
  /** Who rated, only to take one rating each; never shown, null once erased or when imported. */
  attendee_id: string | null;
  comment: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  message_id: string;
  workspace_id: string;
  event_id: string | null;
  type: WebhookEventType;
  payload: string;
  created_utc: string;
  dispatched_utc: string | null;
}

/** Moved by triggers whenever a key or workspace changes what a verified key says (migration 0015). */
export interface KeyGenerationTable {
  id: number;
  value: number;
}

export interface ChangeSequenceTable {
  name: string;
  value: number;
}

interface EventOwned {
  id: string;
  workspace_id: string;
  event_id: string;
}

interface Changing {
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  /** The writing transaction, on PostgreSQL (db/sequence.ts); 0 on SQLite. Set by the database. */
  change_txn: Generated<number>;
}

export interface TicketTypesTable extends EventOwned, Changing {
  name: string;
  description: string;
  price_minor: number;
  vat_rate: number;
  capacity: number | null;
  /** Places held by orders that hold places; changed only together with a capacity check. */
  taken: number;
  max_per_order: number;
  visibility: TicketVisibility;
  access_code: string | null;
  requires_approval: Flag;
  /** Crew tickets: left out of registered counts and sales pace. */
  crew: Flag;
  sales_start_utc: string | null;
  sales_end_utc: string | null;
  included_add_on_ids: string;
  sort_order: number;
  /** When it was retired: no new tickets, off the public page, kept for history (optional when inserting: not). */
  retired_utc: ColumnType<string | null, string | null | undefined, string | null>;
  /** Sold out, the public page takes names for its waiting list (optional when inserting: off). */
  waiting_list: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface AddOnsTable extends EventOwned, Changing {
  name: string;
  description: string | null;
  price_minor: number;
  vat_rate: number;
  capacity: number | null;
  taken: number;
  sort_order: number;
}

export interface DiscountCodesTable extends EventOwned, Changing {
  code: string;
  /** Upper-cased code, unique per event: codes are matched without regard to case. */
  code_key: string;
  percent: number | null;
  amount_minor: number | null;
  max_uses: number | null;
  used: number;
  valid_from_utc: string | null;
  valid_until_utc: string | null;
  ticket_type_ids: string;
  /** Switched off: kept, but not usable (optional when inserting: on). */
  active: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface QuestionsTable extends EventOwned {
  /** JSON object language -> text. */
  label: string;
  kind: QuestionKind;
  required: Flag;
  /** JSON array of { value, label (by language) }. */
  options: string;
  max_length: number | null;
  ticket_type_ids: string;
  sort_order: number;
}

export interface OrdersTable extends EventOwned, Changing {
  reference: string;
  status: OrderStatus;
  buyer_name: string | null;
  buyer_email: string | null;
  buyer_company: string | null;
  language: string;
  total_minor: number;
  vat_minor: number;
  currency: string;
  payment_provider: string | null;
  /** How it was paid (a paymentMethods value); null until paid through the API or CLI. */
  payment_method: string | null;
  /** The payment's reference (a bank transfer's message): personal data, erased with the buyer. */
  payment_reference: string | null;
  paid_utc: string | null;
  source: OrderSource;
  discount_code_id: string | null;
  /** What the discount code took off in all, VAT included (0 without one). */
  discount_minor: ColumnType<number, number | undefined, number>;
  /** What was paid back in all, VAT included (0 without a refund). */
  refunded_minor: ColumnType<number, number | undefined, number>;
  /** A complimentary order's reason (a guest, a speaker). */
  payment_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why the organiser declined a requested order, in their words to the buyer (migration 0050). */
  decline_reason: ColumnType<string | null, string | null | undefined, string | null>;
  erased: Flag;
}

export interface AttendeesTable extends EventOwned, Changing {
  order_id: string;
  ticket_type_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  job_title: string | null;
  language: string;
  answers: string | null;
  status: AttendeeStatus;
  checked_in_utc: string | null;
  cancelled_utc: string | null;
  erased: Flag;
  /** The ticket's code (core/platform/ticket-codes.ts): a credential, unique, kept after erasure. */
  ticket_code: string;
  /**
   * What the ticket was sold for, VAT included, after any discount code (migration 0046); null for a
   * ticket sold before, billed at its type's price.
   */
  price_minor: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * SQLite only (migration 0032): an attendee's searched values and order reference, one text for the
 * FTS5 index attendee_search; written by triggers only (db/attendee-search.ts).
 */
export interface AttendeeSearchTextTable {
  id: Generated<number>;
  attendee_id: string;
  event_id: string;
  /** The attendee's created_utc (migration 0041): the index's candidates, newest first. */
  created_utc: Generated<string>;
  /** The attendee's address (migration 0043): the content of the index of whole addresses. */
  email: string | null;
  terms: string;
}

export interface AttendeeAddOnsTable {
  attendee_id: string;
  add_on_id: string;
  quantity: number;
}

export interface RoomsTable extends EventOwned, Changing {
  name: string;
  capacity: number | null;
  location: string | null;
  sort_order: number;
}

export interface TracksTable extends EventOwned, Changing {
  name: string;
  colour: string;
  description: string | null;
  sort_order: number;
}

export interface SpeakersTable extends EventOwned, Changing {
  /** Null once the speaker erased their data. */
  name: string | null;
  /** Personal data: null without people:read. */
  email: string | null;
  company: string | null;
  job_title: string | null;
  bio: string | null;
  photo_url: string | null;
  erased: Flag;
}

export interface SessionsTable extends EventOwned, Changing {
  title: string;
  summary: string | null;
  kind: SessionKind;
  room_id: string | null;
  track_id: string | null;
  starts_utc: string;
  ends_utc: string;
  capacity: number | null;
  language: string | null;
  join_provider: string | null;
  /** Never returned: only attendees get the link, through the event app. */
  join_url: string | null;
  /** JSON array of speaker ids, in order. */
  speaker_ids: string;
  /** Made by accepting a submission and not yet published: left out of the public event page. */
  draft: Generated<Flag>;
}

export interface DoorsTable extends EventOwned, Changing {
  name: string;
  kind: DoorKind;
  /** The main entrance, where firstCheckInUtc is taken; one per event at most. */
  main: Flag;
  session_id: string | null;
  capacity: number | null;
  /**
   * People inside now, changed only together with the capacity check; on PostgreSQL an uncapped
   * door's scans count in door_inside instead (read both: core/checkin/door-inside.ts).
   */
  inside: number;
  reentry: Flag;
  /** Ticket types it admits; empty: all. */
  ticket_type_ids: string;
  /** Add-ons one of which it requires; empty: none. */
  add_on_ids: string;
  sort_order: number;
}

export interface CheckInsTable {
  id: Generated<number>;
  workspace_id: string;
  event_id: string;
  attendee_id: string;
  door_id: string;
  direction: ScanDirection;
  result: ScanResult;
  admitted: Flag;
  scanned_utc: string;
  offline: Flag;
  recorded_utc: string;
  /** The writing transaction, on PostgreSQL (db/sequence.ts); 0 on SQLite. Set by the database. */
  change_txn: Generated<number>;
}

export interface DoorPresenceTable {
  door_id: string;
  attendee_id: string;
  inside: Flag;
  first_in_utc: string;
  last_scan_utc: string;
}

/** Tickets by state, kept by triggers (migration 0033); one row per slot, summed on read. */
export interface TicketTotalsTable {
  event_id: string;
  attendee_status: AttendeeStatus;
  order_status: OrderStatus;
  crew: Flag;
  checked_in: Flag;
  slot: number;
  n: number;
}

/** Orders and their amounts by status, kept by triggers (migration 0033); summed over slots on read. */
export interface OrderTotalsTable {
  event_id: string;
  status: OrderStatus;
  slot: number;
  n: number;
  total_minor: number;
}

/** Per door: people let in (door_presence rows) and scans refused, kept by triggers (migration 0033). */
export interface DoorTotalsTable {
  door_id: string;
  slot: number;
  admitted: number;
  refused: number;
}

/**
 * What PostgreSQL scans added to (or took from) an uncapped door's people inside, per connection
 * slot (migration 0036); the door's inside is its row's count plus these. Empty on SQLite.
 */
export interface DoorInsideTable {
  door_id: string;
  slot: number;
  inside: number;
}

export interface PassesTable {
  id: string;
  workspace_id: string;
  kind: PassKind;
  community_id: string | null;
  sales_event_id: string;
  name: string;
  description: string | null;
  price_minor: number;
  vat_rate: number;
  currency: string;
  capacity: number;
  scope: PassScope;
  series_id: string | null;
  from_date: string | null;
  to_date: string | null;
  sales_start_utc: string | null;
  sales_end_utc: string | null;
  refund_rule: PassRefundRule;
  status: PassStatus;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface PassEventsTable {
  pass_id: string;
  event_id: string;
  source: PassEventSource;
}

export interface PassHoldersTable {
  id: string;
  workspace_id: string;
  pass_id: string;
  order_id: string;
  status: HolderStatus;
  ended_reason: HolderEndedReason | null;
  ended_utc: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  erased: Flag;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types. */
  event_types: string;
  active: Flag;
  disabled_reason: WebhookDisabledReason | null;
  /** The signing secret, encrypted with the deployment's master key; null for a sample made without one. */
  secret_enc: string | null;
  /** The secret being replaced, which still signs until previous_secret_until_utc. */
  previous_secret_enc: string | null;
  previous_secret_until_utc: string | null;
  /** The key that made it (its scopes redact what is delivered); null for the operator. */
  api_key_id: string | null;
  created_by: string;
  last_status: DeliveryResult | null;
  last_delivery_utc: string | null;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  change_txn: Generated<number>;
}

export interface HooksTable {
  id: string;
  workspace_id: string;
  api_key_id: string | null;
  event_type: WebhookEventType;
  /** Only this event's messages; null: every event of the workspace. */
  event_id: string | null;
  /** The callback address; never returned. */
  url: string;
  client: HookClient;
  active: Flag;
  created_utc: string;
}

export interface DeliveriesTable {
  id: Generated<number>;
  workspace_id: string;
  outbox_id: number | null;
  message_id: string;
  type: string;
  /** The body of a test message (which has no outbox row). */
  payload: string | null;
  target_kind: DeliveryTargetKind;
  target_id: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_utc: string | null;
  /** A dispatcher working on it holds it until then. */
  claimed_until_utc: string | null;
  /** The instance of the dispatcher holding it (db/liveness.ts). */
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_status_code: number | null;
  created_utc: string;
  updated_utc: string;
  /** The writing transaction, on PostgreSQL (db/sequence.ts); 0 on SQLite. Set by the database. */
  change_txn: Generated<number>;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_utc: string;
  duration_ms: number;
  status_code: number | null;
  outcome: AttemptOutcome;
  error: string | null;
  next_attempt_utc: string | null;
}

export interface PassOptOutsTable {
  holder_id: string;
  event_id: string;
}

export interface SponsorLevelsTable extends EventOwned, Changing {
  name: string;
  /** From 1 up, highest first (a sponsor without a level ranks 0). */
  rank: number;
  colour: string;
  staff_allowance: number;
  free_tickets: number;
  lead_download: Flag;
  /** YYYY-MM-DD: the last day the sponsor may export its leads. */
  lead_export_until: string | null;
  discount_codes: number;
  discount_percent: number;
  logo_on_page: Flag;
  logo_on_screens: Flag;
  logo_on_badges: Flag;
  sponsored_session: Flag;
}

export interface SponsorsTable extends EventOwned, Changing {
  level_id: string | null;
  name: string;
  website: string | null;
  logo_url: string | null;
  description: string | null;
  booth: string | null;
  /** Place within its level. */
  sort_order: number;
}

export interface LeadsTable extends EventOwned, Changing {
  sponsor_id: string;
  /** The visitor scanned; null for a lead not tied to a ticket. */
  attendee_id: string | null;
  /** The visitor agreed to share their details; a lead without it is never listed and holds none. */
  shared: Flag;
  /** The visitor shares their email address too. */
  email_shared: Flag;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  job_title: string | null;
  email: string | null;
  /** JSON object keyed by question id. */
  answers: string | null;
  origin: LeadOrigin;
  /** 1 cold, 2 warm, 3 hot. */
  rating: number;
  note: string | null;
  captured_by: string;
  captured_utc: string;
  attended_session_id: string | null;
  erased: Flag;
}

/** A call-for-speakers submission; its speakers, status history and reviews are rows of their own. */
export interface SubmissionsTable extends EventOwned, Changing {
  title: string;
  abstract: string;
  format: SubmissionFormat;
  track_id: string | null;
  language: string;
  status: SubmissionStatus;
  /** The session it became once accepted. */
  session_id: string | null;
  /** When it was sent; null for a draft. */
  submitted_utc: string | null;
  /** The latest decision (accepted, waitlisted, rejected). */
  decided_utc: string | null;
}

export interface SubmissionSpeakersTable extends Changing {
  id: string;
  workspace_id: string;
  submission_id: string;
  /** Place among the submission's speakers; the first sent it. */
  sort_order: number;
  name: string | null;
  email: string | null;
  company: string | null;
  bio: string | null;
  erased: Flag;
}

export interface SubmissionStatusChangesTable {
  id: Generated<number>;
  workspace_id: string;
  submission_id: string;
  status: SubmissionStatus;
  at_utc: string;
}

/** A reviewer's score (1 to 5) and comment; one per reviewer (by email) and submission. */
export interface SubmissionReviewsTable extends Changing {
  id: string;
  workspace_id: string;
  submission_id: string;
  score: number;
  reviewed_utc: string;
  /** Who reviewed; null for reviews imported or made before reviewers were named, and once erased. */
  reviewer_email: string | null;
  comment: string | null;
  erased: Generated<Flag>;
}

/** The call for speakers of an event: its window and what it offers. No row: never opened. */
export interface CallsForSpeakersTable {
  event_id: string;
  workspace_id: string;
  opens_utc: string | null;
  closes_utc: string | null;
  /** JSON array of the submission formats offered. */
  formats: string;
  /** JSON array of the track ids offered; empty: no track is chosen. */
  track_ids: string;
  created_utc: string;
  updated_utc: string;
}

/** Someone who shares an event through the share kit: an attendee, a speaker or a sponsor. */
export interface SharersTable extends EventOwned, Changing {
  kind: SharerKind;
  attendee_id: string | null;
  speaker_id: string | null;
  sponsor_id: string | null;
  name: string | null;
  email: string | null;
  erased: Flag;
}

/** A sharer's personal link, one per channel; code is its ref. */
export interface ShareLinksTable extends EventOwned, Changing {
  sharer_id: string;
  channel: ShareChannel;
  code: string;
  shared_utc: string;
  /** When it was removed: its short address no longer answers, what it brought still counts. */
  removed_utc: string | null;
}

export interface ShareClicksTable {
  id: Generated<number>;
  workspace_id: string;
  link_id: string;
  clicked_utc: string;
}

/** The link a ticket was registered through (one at most). */
export interface ShareRegistrationsTable {
  attendee_id: string;
  workspace_id: string;
  link_id: string;
  registered_utc: string;
}

export interface CrewMembersTable extends EventOwned, Changing {
  name: string | null;
  email: string | null;
  phone: string | null;
  /** JSON array of role names (door, infoDesk, room, greeter, swag and others). */
  roles: string;
  /** Their crew ticket. */
  attendee_id: string | null;
  invited_utc: string;
  last_seen_utc: string | null;
  erased: Flag;
}

export interface ShiftsTable extends EventOwned, Changing {
  role: string;
  place_kind: ShiftPlaceKind;
  /** The door or room; null for an area or another place. */
  place_id: string | null;
  /** How the place is shown; null shows the door's or room's own name. */
  place_name: string | null;
  starts_utc: string;
  ends_utc: string;
  needed: number;
}

/** Who is on which shift; a shift's assigned and open places are counted from these rows. */
export interface ShiftAssignmentsTable {
  shift_id: string;
  crew_member_id: string;
  created_utc: string;
}

/** An invoice or credit note; amounts in minor units, a credit note's negative. */
export interface InvoicesTable extends EventOwned, Changing {
  order_id: string;
  kind: InvoiceKind;
  /** Place in the event's series (invoices and credit notes share it). */
  series_no: number;
  number: string;
  /** The invoice a credit note corrects; null on an invoice. */
  corrects_id: string | null;
  issued_utc: string;
  total_minor: number;
  vat_minor: number;
  currency: string;
  /** The currency the VAT is also stated in, with the VAT in it (both or neither). */
  vat_currency: string | null;
  vat_converted_minor: number | null;
  buyer_name: string | null;
  buyer_email: string | null;
  buyer_company: string | null;
  buyer_address: string | null;
  buyer_vat_number: string | null;
  buyer_reference: string | null;
  erased: Flag;
  /** JSON object: the organiser as printed (enabled, sellerName, ..., prefix, footer); null: none. */
  seller: string | null;
}

/** An event's invoicing settings: the seller as printed and the series' prefix. */
export interface EventInvoicingTable {
  event_id: string;
  workspace_id: string;
  enabled: Flag;
  seller_name: string;
  seller_address: string | null;
  seller_vat_number: string | null;
  seller_registration: string | null;
  prefix: string;
  footer: string | null;
  /** A second currency the VAT is stated in, and units of it for one of the event's (both or neither). */
  vat_currency: string | null;
  vat_rate: number | null;
  updated_utc: string;
}

/** An event's sign-up settings (issue 27); an event without a row has the defaults. */
export interface EventSignUpTable {
  event_id: string;
  workspace_id: string;
  /** Whether the public page /e/{slug} takes registrations (default 1). */
  public_form: Flag;
  /** What a buyer paying by bank transfer is told (account, reference to quote); null: none. */
  payment_instructions: string | null;
  /** Whether attendees of the event are sent e-mail (default 1). */
  send_emails: Flag;
  /** How long a waiting-list offer holds its place, in hours (default 48). */
  waiting_list_offer_hours: ColumnType<number, number | undefined, number>;
  updated_utc: string;
}

/** A person in line for a sold-out ticket type (core/waiting-list). */
export interface WaitingListEntriesTable extends EventOwned, Changing {
  ticket_type_id: string;
  /** Personal data: null once erased. */
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  language: string;
  /** When they agreed to be e-mailed about a place; null when the organiser added them. */
  consent_utc: string | null;
  /** When they joined, in milliseconds: the line is this, then the (time-ordered) id, ascending. */
  position: number;
  status: WaitingStatus;
  /** SHA-256 of the offer link's token (the link itself is only in the offer e-mail). */
  offer_token_hash: string | null;
  offered_utc: string | null;
  offer_expires_utc: string | null;
  /** The order its offer was taken up with. */
  order_id: string | null;
  erased: Flag;
}

/** An e-mail to an attendee or buyer, queued with its cause and sent by the mail sender (core/mail). */
export interface MailMessagesTable {
  id: string;
  workspace_id: string;
  event_id: string;
  /** The ticket it is about, when it is about one. */
  attendee_id: string | null;
  order_id: string | null;
  cause_kind: MailCauseKind;
  /** With cause_kind, unique: one cause is queued once. */
  cause_id: string;
  /** The Message-ID header, derived from the cause, so a resend after a crash is recognisable. */
  message_id: string;
  /** Personal data: null once erased. */
  recipient: string | null;
  subject: string;
  /** Personal data (the body names the person): null once erased. */
  text_body: string | null;
  html_body: string | null;
  /** JSON array of { filename, contentType, content }; personal data. */
  attachments: string | null;
  state: MailState;
  attempts: number;
  next_attempt_utc: string | null;
  /** A sender working on it holds it until then, named by its instance (db/liveness.ts). */
  claimed_until_utc: string | null;
  claimed_by: string | null;
  last_error: string | null;
  sent_utc: string | null;
  erased: Flag;
  created_utc: string;
  updated_utc: string;
  change_seq: number;
  /** The writing transaction, on PostgreSQL (db/sequence.ts); 0 on SQLite. Set by the database. */
  change_txn: Generated<number>;
}

/** The last place taken in an event's series of invoices and credit notes. */
export interface InvoiceSeriesTable {
  event_id: string;
  last_no: number;
}

export interface InvoiceLinesTable {
  id: string;
  invoice_id: string;
  ticket_type_id: string;
  add_on_id: string | null;
  name: string;
  /** Negative on a credit note (the places it takes back). */
  quantity: number;
  unit_price_minor: number;
  vat_rate: number;
  total_minor: number;
  vat_minor: number;
  sort: number;
}

/** One line of an event's budget, net of VAT; kind says whether it is income or a cost. */
export interface BudgetLinesTable extends EventOwned, Changing {
  category: string;
  name: string;
  kind: BudgetLineKind;
  budgeted_minor: number;
  committed_minor: number;
  actual_minor: number;
  forecast_minor: number;
  /** Percent VAT on the line's net amounts (0 where none, the default); the summary stays net. */
  vat_rate: Generated<number>;
}

/** A person named on an import-only source; erasure finds them by email (and ticket, where kept). */
interface NamedPerson {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  erased: Flag;
}

/** The speaker or crew member a stay, journey or claim is for (0026): erasing them reaches the row. */
interface ForSpeakerOrCrew {
  speaker_id: string | null;
  crew_member_id: string | null;
}

/** A hotel stay arranged for an attendee, a speaker or crew (comes in by import). */
export interface StaysTable extends EventOwned, Changing, NamedPerson, ForSpeakerOrCrew {
  attendee_id: string | null;
  status: StayStatus;
  hotel: string | null;
  room: string | null;
  /** YYYY-MM-DD: first night. */
  check_in_date: string;
  /** YYYY-MM-DD: day of leaving. */
  check_out_date: string;
}

/** A journey booked for a speaker or crew member (comes in by import). */
export interface TravelTable extends EventOwned, Changing, NamedPerson, ForSpeakerOrCrew {
  mode: TravelMode;
  status: Generated<TravelStatus>;
  from_place: string;
  to_place: string;
  departs_utc: string;
  arrives_utc: string;
  /** Booking reference: personal data. */
  reference: string | null;
}

/** An expense claim of a speaker or crew member (comes in by import). */
export interface ExpenseClaimsTable extends EventOwned, Changing, NamedPerson, ForSpeakerOrCrew {
  category: string;
  amount_minor: number;
  currency: string;
  status: ClaimStatus;
  submitted_utc: string;
  approved_utc: string | null;
  paid_utc: string | null;
}

/** A certificate of attendance, speaking or crewing issued to a ticket holder (comes in by import). */
export interface CertificatesTable extends EventOwned, Changing, NamedPerson {
  attendee_id: string;
  kind: CertificateKind;
  issued_utc: string;
  /** The public verification page's code (/v/{code}): random, never derived from an id. */
  verification_code: string;
  /** Set when revoked: the page then says so. */
  revoked_utc: string | null;
}

/** Slides, a recording, an article or photos published after the event (comes in by import). */
export interface PublishedContentTable extends EventOwned, Changing {
  kind: ContentKind;
  title: string;
  session_id: string | null;
  url: string;
  published_utc: string;
}

/** A record of the OAuth server (oidc-provider): a client, interaction, session, grant, code or refresh token. */
export interface OauthRecordsTable {
  model: string;
  id: string;
  /** The model's JSON payload, as oidc-provider gave it. */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  expires_utc: string | null;
  consumed_utc: string | null;
}

/** A call counter shared by processes (core/platform/storage/shared-rate-counter.ts). */
export interface RateWindowsTable {
  /** What is counted: its purpose and a key id or source address. */
  key: string;
  started_ms: number;
  used: number;
}

/** What a deployment key is for, with the fingerprint of the key in use (0031). */
export interface DeploymentKeysTable {
  /** webhookSecrets: the key webhook signing secrets are encrypted under. */
  purpose: string;
  fingerprint: string;
  recorded_utc: string;
}

/** A workspace's connection to its Stripe account (0047): the secrets kept only encrypted (core/payments). */
export interface StripeConnectionsTable {
  workspace_id: string;
  /** acct_…, as Stripe answered for the key; null when a restricted key may not read the account. */
  account_id: string | null;
  /** The account's name as Stripe shows it, when the key may read it. */
  account_name: string | null;
  /** From the key's prefix: sk_test_/rk_test_ or sk_live_/rk_live_. */
  mode: StripeMode;
  /** The secret (or restricted) key, AES-256-GCM under the deployment's key (as webhook signing secrets). */
  secret_key_enc: string;
  /** The key's last four characters, all that is ever shown of it. */
  key_last4: string;
  /** The webhook signing secret (whsec_…), encrypted the same way; null until given. */
  webhook_secret_enc: string | null;
  /** The key name that connected it. */
  connected_by: string;
  connected_utc: string;
  updated_utc: string;
}

/** A Stripe event received at a workspace's webhook address: its id, once (no payload is kept). */
export interface StripeEventsTable {
  workspace_id: string;
  /** evt_… */
  event_id: string;
  type: string;
  /** The id of the object it is about (cs_…, re_…, ch_…). */
  object_id: string | null;
  livemode: Flag;
  /** When Stripe made it. */
  created_utc: string;
  received_utc: string;
  /** 1 when a handler of its type ran; 0 for a type this service does not act on. */
  handled: Flag;
}

/** An order paid by card through a Stripe Checkout session (0049): its hold, its session, its payment. */
export interface CardCheckoutsTable {
  order_id: string;
  workspace_id: string;
  /** cs_…; null until the session is made (after the order's transaction). */
  session_id: string | null;
  /** Where the buyer pays (Stripe's hosted page); null until the session is made. */
  session_url: string | null;
  /** The order's places are held until then; the session expires then too. */
  hold_until_utc: string;
  /** pi_…, once paid: what a refund names. */
  payment_intent_id: string | null;
  created_utc: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  key_activity: KeyActivityTable;
  workspace_activity: WorkspaceActivityTable;
  idempotency_records: IdempotencyRecordsTable;
  events: EventsTable;
  outbox: OutboxTable;
  change_sequence: ChangeSequenceTable;
  key_generation: KeyGenerationTable;
  ticket_types: TicketTypesTable;
  add_ons: AddOnsTable;
  discount_codes: DiscountCodesTable;
  questions: QuestionsTable;
  orders: OrdersTable;
  attendees: AttendeesTable;
  attendee_search_text: AttendeeSearchTextTable;
  attendee_add_ons: AttendeeAddOnsTable;
  rooms: RoomsTable;
  tracks: TracksTable;
  speakers: SpeakersTable;
  sessions: SessionsTable;
  doors: DoorsTable;
  check_ins: CheckInsTable;
  door_presence: DoorPresenceTable;
  ticket_totals: TicketTotalsTable;
  order_totals: OrderTotalsTable;
  door_totals: DoorTotalsTable;
  door_inside: DoorInsideTable;
  passes: PassesTable;
  pass_events: PassEventsTable;
  pass_holders: PassHoldersTable;
  pass_opt_outs: PassOptOutsTable;
  webhooks: WebhooksTable;
  hooks: HooksTable;
  deliveries: DeliveriesTable;
  communities: CommunitiesTable;
  community_members: CommunityMembersTable;
  surveys: SurveysTable;
  survey_responses: SurveyResponsesTable;
  session_ratings: SessionRatingsTable;
  delivery_attempts: DeliveryAttemptsTable;
  sponsor_levels: SponsorLevelsTable;
  sponsors: SponsorsTable;
  leads: LeadsTable;
  submissions: SubmissionsTable;
  submission_speakers: SubmissionSpeakersTable;
  submission_status_changes: SubmissionStatusChangesTable;
  submission_reviews: SubmissionReviewsTable;
  calls_for_speakers: CallsForSpeakersTable;
  sharers: SharersTable;
  share_links: ShareLinksTable;
  share_clicks: ShareClicksTable;
  share_registrations: ShareRegistrationsTable;
  crew_members: CrewMembersTable;
  shifts: ShiftsTable;
  shift_assignments: ShiftAssignmentsTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  event_invoicing: EventInvoicingTable;
  event_sign_up: EventSignUpTable;
  mail_messages: MailMessagesTable;
  invoice_series: InvoiceSeriesTable;
  budget_lines: BudgetLinesTable;
  stays: StaysTable;
  travel: TravelTable;
  expense_claims: ExpenseClaimsTable;
  certificates: CertificatesTable;
  published_content: PublishedContentTable;
  oauth_records: OauthRecordsTable;
  rate_windows: RateWindowsTable;
  deployment_keys: DeploymentKeysTable;
  stripe_connections: StripeConnectionsTable;
  stripe_events: StripeEventsTable;
  card_checkouts: CardCheckoutsTable;
  waiting_list_entries: WaitingListEntriesTable;
}

/**
 * A row as the code reads and renders it. change_txn is left out: the database sets it, and only a
 * list's position reads it, from the rows of its own query (core/platform/pipeline/list-keyset.ts).
 */
type Row<T> = Omit<Selectable<T>, 'change_txn'>;

export type WorkspaceRow = Row<WorkspacesTable>;
export type ApiKeyRow = Row<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type EventRow = Row<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
export type EventUpdate = Updateable<EventsTable>;
export type IdempotencyRow = Row<IdempotencyRecordsTable>;
export type TicketTypeRow = Row<TicketTypesTable>;
export type WaitingListEntryRow = Row<WaitingListEntriesTable>;
export type AddOnRow = Row<AddOnsTable>;
export type DiscountCodeRow = Row<DiscountCodesTable>;
export type QuestionRow = Row<QuestionsTable>;
export type OrderRow = Row<OrdersTable>;
export type AttendeeRow = Row<AttendeesTable>;
export type RoomRow = Row<RoomsTable>;
export type TrackRow = Row<TracksTable>;
export type SpeakerRow = Row<SpeakersTable>;
export type SessionRow = Row<SessionsTable>;
export type DoorRow = Row<DoorsTable>;
export type CheckInRow = Row<CheckInsTable>;
export type PassRow = Row<PassesTable>;
export type PassHolderRow = Row<PassHoldersTable>;
export type WebhookRow = Row<WebhooksTable>;
export type HookRow = Row<HooksTable>;
export type DeliveryRow = Row<DeliveriesTable>;
export type SponsorLevelRow = Row<SponsorLevelsTable>;
export type SponsorRow = Row<SponsorsTable>;
export type LeadRow = Row<LeadsTable>;
export type SubmissionRow = Row<SubmissionsTable>;
export type SubmissionSpeakerRow = Row<SubmissionSpeakersTable>;
export type SubmissionReviewRow = Row<SubmissionReviewsTable>;
export type CallForSpeakersRow = Row<CallsForSpeakersTable>;
export type SharerRow = Row<SharersTable>;
export type ShareLinkRow = Row<ShareLinksTable>;
export type CommunityRow = Row<CommunitiesTable>;
export type SurveyRow = Row<SurveysTable>;
export type CommunityMemberRow = Row<CommunityMembersTable>;
export type CrewMemberRow = Row<CrewMembersTable>;
export type ShiftRow = Row<ShiftsTable>;
export type InvoiceRow = Row<InvoicesTable>;
export type InvoiceLineRow = Row<InvoiceLinesTable>;
export type BudgetLineRow = Row<BudgetLinesTable>;
export type NewDeliveryRow = Insertable<DeliveriesTable>;
export type StayRow = Row<StaysTable>;
export type TravelRow = Row<TravelTable>;
export type ExpenseClaimRow = Row<ExpenseClaimsTable>;
export type CertificateRow = Row<CertificatesTable>;
export type ContentRow = Row<PublishedContentTable>;
export type EventInvoicingRow = Row<EventInvoicingTable>;
export type EventSignUpRow = Row<EventSignUpTable>;
export type MailMessageRow = Row<MailMessagesTable>;

/** The database as the code queries it, on either store. */
export type Db = Kysely<Database>;
