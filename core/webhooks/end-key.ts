// A key that ends (revoked, or past its expiry) takes its automation subscriptions with it and
// switches off the endpoints it made; what was still waiting for them is cancelled. Done once per
// key: at revocation in the same transaction, and for expiry by a job that looks every minute.
import type { Db } from '../../db/connect';
import { changingRow, lockingRow } from '../../db/dialect';
import type { Clock } from '../platform/clock';
import type { Services } from '../platform/services';
import { cancelPendingDeliveries } from './delivery-state';

export async function endKeySubscriptions(
  db: Db,
  clock: Clock,
  keyId: string,
  reason: 'keyRevoked' | 'keyExpired',
): Promise<{ hooks: number; webhooks: number }> {
  const now = clock.now().toISOString();
  // The endpoints, then the subscriptions, each in id order, before their deliveries: as their
  // attempts' results take them (attempt-results.ts), so the two never wait on each other in a circle.
  const webhooks = (
    await changingRow(
      db,
      db
        .selectFrom('webhooks')
        .select('id')
        .where('api_key_id', '=', keyId)
        .where('active', '=', 1)
        .orderBy('id'),
    ).execute()
  ).map((w) => w.id);
  const hooks = (
    await lockingRow(
      db,
      db.selectFrom('hooks').select('id').where('api_key_id', '=', keyId).orderBy('id'),
    ).execute()
  ).map((h) => h.id);
  await cancelPendingDeliveries(db, clock, 'hook', hooks);
  if (hooks.length > 0) await db.deleteFrom('hooks').where('id', 'in', hooks).execute();
  await cancelPendingDeliveries(db, clock, 'webhook', webhooks);
  if (webhooks.length > 0)
    await db
      .updateTable('webhooks')
      .set({ active: 0, disabled_reason: reason, updated_utc: now })
      .where('id', 'in', webhooks)
      .execute();
  await db.updateTable('api_keys').set({ ended_handled_utc: now }).where('id', '=', keyId).execute();
  return { hooks: hooks.length, webhooks: webhooks.length };
}

/** Keys past their expiry whose subscriptions and endpoints were not dealt with yet. */
export async function endExpiredKeys(services: Services): Promise<number> {
  const { db, clock } = services;
  const expired = await db
    .selectFrom('api_keys')
    .select('id')
    .where('expires_utc', '<=', clock.now().toISOString())
    .where('revoked_utc', 'is', null)
    .where('ended_handled_utc', 'is', null)
    .execute();
  for (const key of expired)
    await services.writes.run((trx, moment) => endKeySubscriptions(trx, moment, key.id, 'keyExpired'));
  return expired.length;
}
