// Operator commands on API keys: create (with a preset, scopes, or legacy read/write), list,
// revoke, and read a key's activity. Keys are never stored whole: only a hash of the secret.
import type { Db } from '../../db/connect';
import { addDays, type Clock } from '../platform/clock';
import { newId } from '../platform/ids';
import { generateKey } from '../platform/keys';
import { problem } from '../platform/problems';
import {
  isPreset,
  isScope,
  type LegacyScope,
  legacyScopes,
  normaliseScopes,
  presets,
  rewriteLegacyScopes,
  type Scope,
} from '../platform/scopes';
import { endKeySubscriptions } from '../webhooks';
import type { WorkspaceRefusals } from './operator';
import { findWorkspace } from './workspaces';

export const expiryChoices = ['30', '90', '180', '365', 'never'] as const;
export type ExpiryChoice = (typeof expiryChoices)[number];

export interface KeyRequest {
  workspaceId: string;
  name: string;
  preset?: string;
  scopes?: string[];
  /** Scopes of a key made before per-area scopes existed (read, write); rewritten on creation. */
  legacy?: string[];
  expires?: string;
  ratePerMinute?: number;
}

export class KeyRequestError extends Error {}

function resolveScopes(request: KeyRequest): { scopes: Scope[]; legacy: LegacyScope[] | null } {
  const given = [
    request.preset !== undefined,
    request.scopes !== undefined,
    request.legacy !== undefined,
  ].filter(Boolean);
  if (given.length !== 1) throw new KeyRequestError('Give exactly one of --preset, --scopes or --legacy.');
  if (request.preset !== undefined) {
    if (!isPreset(request.preset))
      throw new KeyRequestError(
        `Unknown preset "${request.preset}": use ${Object.keys(presets).join(', ')}.`,
      );
    return { scopes: [...presets[request.preset]], legacy: null };
  }
  if (request.legacy !== undefined) {
    const unknown = request.legacy.filter((s) => !(legacyScopes as readonly string[]).includes(s));
    if (unknown.length || request.legacy.length === 0)
      throw new KeyRequestError('Legacy scopes are read and write.');
    const legacy = request.legacy as LegacyScope[];
    return { scopes: rewriteLegacyScopes(legacy), legacy };
  }
  const list = request.scopes ?? [];
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length) throw new KeyRequestError(`Unknown scopes: ${unknown.join(', ')}.`);
  if (list.length === 0) throw new KeyRequestError('Give at least one scope.');
  return { scopes: normaliseScopes(list as Scope[]), legacy: null };
}

/** Why a key cannot be made in a workspace: it does not exist, or it is the demonstration. */
export const keyWorkspaceRefusals: WorkspaceRefusals = {
  missing: (workspaceId) => new KeyRequestError(`No workspace ${workspaceId}.`),
  demonstration: () =>
    new KeyRequestError('The demonstration workspace has no keys of its own; use `tessera demo key`.'),
};

/** Makes a key in any workspace (the test harness and the benchmarks); the CLI goes through createKeyOperation. */
export async function createKey(db: Db, clock: Clock, request: KeyRequest) {
  const workspace = await findWorkspace(db, request.workspaceId);
  if (!workspace) throw keyWorkspaceRefusals.missing(request.workspaceId);
  if (workspace.demonstration === 1) throw keyWorkspaceRefusals.demonstration!();
  return insertKey(db, clock, request);
}

/** Checks the request and makes the key in its (existing, not demonstration) workspace. */
export async function insertKey(db: Db, clock: Clock, request: KeyRequest) {
  const name = request.name.trim();
  if (!name || name.length > 100) throw new KeyRequestError('A key name must be 1 to 100 characters.');
  const expires = request.expires ?? '90';
  if (!(expiryChoices as readonly string[]).includes(expires))
    throw new KeyRequestError('--expires is one of 30, 90, 180, 365 or never.');
  if (
    request.ratePerMinute !== undefined &&
    (!Number.isInteger(request.ratePerMinute) || request.ratePerMinute < 1)
  ) {
    throw new KeyRequestError('--rate must be a whole number of calls a minute, at least 1.');
  }
  const { scopes, legacy } = resolveScopes(request);
  const now = clock.now();
  const expiresUtc = expires === 'never' ? null : addDays(now, Number(expires)).toISOString();
  const generated = generateKey();
  const apiKeyId = newId();
  await db
    .insertInto('api_keys')
    .values({
      id: apiKeyId,
      workspace_id: request.workspaceId,
      name,
      prefix: generated.prefix,
      secret_hash: generated.secretHash,
      scopes: JSON.stringify(scopes),
      legacy_scopes: legacy ? JSON.stringify(legacy) : null,
      rate_per_minute: request.ratePerMinute ?? null,
      created_utc: now.toISOString(),
      expires_utc: expiresUtc,
      revoked_utc: null,
      last_used_utc: null,
    })
    .execute();
  return { apiKeyId, name, key: generated.key, prefix: generated.prefix, scopes, expiresUtc };
}

export async function listKeys(db: Db, clock: Clock, workspaceId: string) {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_utc', 'desc')
    .execute();
  const now = clock.now().toISOString();
  return rows.map((r) => ({
    apiKeyId: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: JSON.parse(r.scopes) as Scope[],
    legacyScopes: r.legacy_scopes ? (JSON.parse(r.legacy_scopes) as string[]) : null,
    status: r.revoked_utc ? 'revoked' : r.expires_utc !== null && r.expires_utc <= now ? 'expired' : 'active',
    createdUtc: r.created_utc,
    expiresUtc: r.expires_utc,
    revokedUtc: r.revoked_utc,
    lastUsedUtc: r.last_used_utc,
  }));
}

/**
 * Revokes a key: refused (401 keyRevoked) from its very next call; the automation subscriptions it
 * made are removed and the endpoints it made switched off, in the same transaction.
 */
export function revokeKey(db: Db, clock: Clock, apiKeyId: string) {
  return db.transaction().execute((trx) => revokeKeyIn(trx, clock, apiKeyId));
}

/** Revokes a key in the transaction given; only in workspaceId when given. */
export async function revokeKeyIn(db: Db, clock: Clock, apiKeyId: string, workspaceId?: string) {
  let query = db.selectFrom('api_keys').select(['id', 'revoked_utc']).where('id', '=', apiKeyId);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const row = await query.executeTakeFirst();
  if (!row) throw problem('notFound', `No API key ${apiKeyId}.`);
  const revokedUtc = row.revoked_utc ?? clock.now().toISOString();
  let ended = { hooks: 0, webhooks: 0 };
  if (!row.revoked_utc) {
    await db.updateTable('api_keys').set({ revoked_utc: revokedUtc }).where('id', '=', apiKeyId).execute();
    ended = await endKeySubscriptions(db, clock, apiKeyId, 'keyRevoked');
  }
  return {
    apiKeyId,
    revokedUtc,
    alreadyRevoked: row.revoked_utc !== null,
    subscriptionsRemoved: ended.hooks,
    endpointsSwitchedOff: ended.webhooks,
  };
}

/** The workspace a key belongs to, for the operator context of a command naming only the key. */
export async function keyWorkspaceId(db: Db, apiKeyId: string): Promise<string> {
  const row = await db
    .selectFrom('api_keys')
    .select('workspace_id')
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No API key ${apiKeyId}.`);
  return row.workspace_id;
}

export async function keyActivity(db: Db, apiKeyId: string, limit = 200) {
  const key = await db.selectFrom('api_keys').select('id').where('id', '=', apiKeyId).executeTakeFirst();
  if (!key) throw problem('notFound', `No API key ${apiKeyId}.`);
  const rows = await db
    .selectFrom('key_activity')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    atUtc: r.at_utc,
    transport: r.transport,
    operation: r.operation,
    outcome: r.outcome,
    status: r.status,
    durationMs: r.duration_ms,
    source: r.source,
  }));
}
