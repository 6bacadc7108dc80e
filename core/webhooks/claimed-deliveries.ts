// What the dispatcher needs to make the attempts of the deliveries it just claimed, read together:
// the deliveries with their messages' bodies, their receivers and the keys that made them. A few
// statements for a batch rather than four for each delivery (a delivery was half statements).
import type { Db } from '../../db/connect';
import type { DeliveryRow, HookRow, WebhookRow } from '../../db/schema';
import type { Reader } from '../platform/pipeline/personal-data';
import { isScope, type Scope } from '../platform/scopes';

export type Target = { kind: 'webhook'; row: WebhookRow } | { kind: 'hook'; row: HookRow };

export interface StoredMessage {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A claimed delivery and what its attempt needs; `cancel` when it is not to be tried. */
export type ClaimedDelivery =
  | { delivery: DeliveryRow; cancel: true }
  | { delivery: DeliveryRow; cancel: false; target: Target; reader: Reader; message: StoredMessage };

export async function readClaimed(db: Db, ids: readonly number[], now: string): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('deliveries')
    .leftJoin('outbox', 'outbox.id', 'deliveries.outbox_id')
    .selectAll('deliveries')
    .select('outbox.payload as message_payload')
    .where('deliveries.id', 'in', ids)
    .execute();
  const targets = await readTargets(db, rows);
  const readers = await readReaders(db, [...targets.values()]);
  const claimed: ClaimedDelivery[] = [];
  for (const { message_payload, ...delivery } of rows) {
    if (delivery.state !== 'pending') continue;
    const target = targets.get(`${delivery.target_kind}:${delivery.target_id}`);
    const isTest = delivery.outbox_id === null;
    const reader = target ? readerOf(readers, target.row.api_key_id, now) : null;
    const body = isTest ? delivery.payload : message_payload;
    if (!target || (!isTest && target.row.active === 0) || reader === null || body === null) {
      claimed.push({ delivery, cancel: true });
      continue;
    }
    claimed.push({ delivery, cancel: false, target, reader, message: JSON.parse(body) as StoredMessage });
  }
  return claimed;
}

async function readTargets(
  db: Db,
  deliveries: readonly Pick<DeliveryRow, 'target_kind' | 'target_id'>[],
): Promise<Map<string, Target>> {
  const idsOf = (kind: string) => [
    ...new Set(deliveries.filter((d) => d.target_kind === kind).map((d) => d.target_id)),
  ];
  const webhookIds = idsOf('webhook');
  const hookIds = idsOf('hook');
  const targets = new Map<string, Target>();
  if (webhookIds.length > 0)
    for (const row of await db.selectFrom('webhooks').selectAll().where('id', 'in', webhookIds).execute())
      targets.set(`webhook:${row.id}`, { kind: 'webhook', row });
  if (hookIds.length > 0)
    for (const row of await db.selectFrom('hooks').selectAll().where('id', 'in', hookIds).execute())
      targets.set(`hook:${row.id}`, { kind: 'hook', row });
  return targets;
}

type KeyRow = { id: string; scopes: string; revoked_utc: string | null; expires_utc: string | null };

async function readReaders(db: Db, targets: readonly Target[]): Promise<Map<string, KeyRow>> {
  const keyIds = [...new Set(targets.flatMap((t) => (t.row.api_key_id === null ? [] : [t.row.api_key_id])))];
  if (keyIds.length === 0) return new Map();
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'scopes', 'revoked_utc', 'expires_utc'])
    .where('id', 'in', keyIds)
    .execute();
  return new Map(keys.map((k) => [k.id, k]));
}

/** The scopes personal data is redacted by: those of the key that made the receiver; null when it ended. */
function readerOf(keys: Map<string, KeyRow>, keyId: string | null, now: string): Reader | null {
  if (keyId === null) return 'unredacted';
  const key = keys.get(keyId);
  if (!key || key.revoked_utc !== null || (key.expires_utc !== null && key.expires_utc <= now)) return null;
  return { scopes: (JSON.parse(key.scopes) as string[]).filter(isScope) as Scope[] };
}
