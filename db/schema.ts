// The Kysely `Database` interface: one table type per table, snake_case columns.
// Times are ISO 8601 UTC strings (sortable as text); booleans are 0/1; JSON is text.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface WorkspacesTable {
  id: string;
  name: string;
  demonstration: number;
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
}

export interface KeyActivityTable {
  id: Generated<number>;
  workspace_id: string;
  api_key_id: string;
  at_utc: string;
  transport: string;
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
  method: string;
  path: string;
  body_hash: string;
  state: string;
  status: number | null;
  response_body: string | null;
  created_utc: string;
  expires_utc: string;
}

export interface EventsTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  status: string;
  online: number;
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
  created_utc: string;
  updated_utc: string;
  change_seq: number;
}

export interface OutboxTable {
  id: Generated<number>;
  message_id: string;
  workspace_id: string;
  event_id: string | null;
  type: string;
  payload: string;
  created_utc: string;
  dispatched_utc: string | null;
}

export interface ChangeSequenceTable {
  name: string;
  value: number;
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
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
export type EventUpdate = Updateable<EventsTable>;
export type IdempotencyRow = Selectable<IdempotencyRecordsTable>;
