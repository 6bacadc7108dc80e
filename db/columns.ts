// Columns named one by one for the hot reads that PostgreSQL keeps prepared (db/server-statements.ts).
// A prepared `select *` fails once a migration adds a column ("cached plan must not change result
// type"), which a rolling upgrade does beside running processes; a statement that names its
// columns goes on answering what it always did. Each list is checked against its table's type, so
// a column added to db/schema.ts and not here does not compile.
import type {
  AddOnsTable,
  AttendeesTable,
  DoorsTable,
  EventsTable,
  QuestionsTable,
  TicketTypesTable,
} from './schema';

/** Every key of T once, as the type of the list: a missing or unknown name is a type error. */
type Exactly<T, L extends readonly (keyof T)[]> = Exclude<keyof T, L[number]> extends never ? L : never;

function exactly<T>() {
  return <const L extends readonly (keyof T)[]>(list: Exactly<T, L>): L => list;
}

export const eventColumns = exactly<EventsTable>()([
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
  'payment_methods',
  'created_utc',
  'updated_utc',
  'change_seq',
  'change_txn',
]);

export const doorColumns = exactly<DoorsTable>()([
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
]);

export const attendeeColumns = exactly<AttendeesTable>()([
  'id',
  'workspace_id',
  'event_id',
  'order_id',
  'ticket_type_id',
  'first_name',
  'last_name',
  'email',
  'company',
  'job_title',
  'language',
  'answers',
  'status',
  'checked_in_utc',
  'cancelled_utc',
  'erased',
  'ticket_code',
  'price_minor',
  'created_utc',
  'updated_utc',
  'change_seq',
  'change_txn',
]);

export const ticketTypeColumns = exactly<TicketTypesTable>()([
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
  'retired_utc',
  'waiting_list',
  'created_utc',
  'updated_utc',
  'change_seq',
  'change_txn',
]);

export const addOnColumns = exactly<AddOnsTable>()([
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
]);

export const questionColumns = exactly<QuestionsTable>()([
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
]);
