// `tessera secrets rekey`: every secret the deployment's key seals, sealed again under the new one in
// one transaction: the webhook endpoints' (core/webhooks owns the rekey) and each workspace's Stripe
// key and signing secret (core/payments).
import type { Db } from '../../db/connect';
import { resealStripeSecrets } from '../payments';
import { rekeySecrets } from '../webhooks';

export function rekeyAllSecrets(
  db: Db,
  oldKeys: readonly Buffer[],
  newKey: Buffer,
  now: Date,
  options: { discardUnreadable?: boolean } = {},
) {
  return rekeySecrets(db, oldKeys, newKey, now, {
    ...options,
    elsewhere: { stripeConnections: resealStripeSecrets },
  });
}
