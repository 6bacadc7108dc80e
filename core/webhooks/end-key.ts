// A key that ends (revoked, or past its expiry) takes its automation subscriptions with it and
// switches off the endpoints it made; what was still waiting for them is cancelled. Done once per
// key: at revocation in the same transaction, and for expiry by a job that looks every minute.
import type { Db } from '../../db/connect';
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
  const hooks = (await db.selectFrom('hooks').select('id').where('api_key_id', '=', keyId).execute()).map(
    (h) => h.id,
  );
  await cancelPendingDeliveries(db, clock, 'hook', hooks);
  if (hooks.length > 0) await db.deleteFrom('hooks').where('id', 'in', hooks).execute();
  const webhooks = (
    await db
      .selectFrom('webhooks')
      .select('id')
      .where('api_key_id', '=', keyId)
      .where('active', '=', 1)
      .execute()
  ).map((w) => w.id);
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
