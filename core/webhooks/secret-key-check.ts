// Whether this start has the key the webhook signing secrets were encrypted under. A start with
// another key (TESSERA_SECRET_KEY set or changed after secrets were made, a lost instance.key, a
// process with a data folder of its own) would leave every delivery unsigned: the caller refuses
// to start instead. The database keeps the key's fingerprint (deployment_keys), recorded on the
// first start that checks; a database from before the check is tested on one of its secrets.
import type { Db } from '../../db/connect';
import { keyFingerprint } from '../platform/secrets';
import { decryptSecret } from './signing-secrets';

const purpose = 'webhookSecrets';

export type KeyCheck = 'recorded' | 'same' | 'otherKey';

/** Whether any secret is kept (an endpoint's, or a workspace's Stripe key), and whether one of them opens with this key. */
async function opensKeptSecret(db: Db, key: Buffer): Promise<boolean> {
  const kept =
    (
      await db
        .selectFrom('webhooks')
        .select('secret_enc')
        .where('secret_enc', 'is not', null)
        .limit(1)
        .executeTakeFirst()
    )?.secret_enc ??
    (await db.selectFrom('stripe_connections').select('secret_key_enc').limit(1).executeTakeFirst())
      ?.secret_key_enc;
  if (!kept) return true;
  try {
    decryptSecret(key, kept);
    return true;
  } catch {
    return false;
  }
}

export async function checkSecretKey(db: Db, key: Buffer, now: Date): Promise<KeyCheck> {
  const fingerprint = keyFingerprint(key);
  const recorded = () =>
    db.selectFrom('deployment_keys').select('fingerprint').where('purpose', '=', purpose).executeTakeFirst();
  const before = await recorded();
  if (before) return before.fingerprint === fingerprint ? 'same' : 'otherKey';
  if (!(await opensKeptSecret(db, key))) return 'otherKey';
  // Processes starting together record one fingerprint: the others compare theirs with it.
  await db
    .insertInto('deployment_keys')
    .values({ purpose, fingerprint, recorded_utc: now.toISOString() })
    .onConflict((c) => c.column('purpose').doNothing())
    .execute();
  return (await recorded())?.fingerprint === fingerprint ? 'recorded' : 'otherKey';
}

/** Records this key as the one the secrets are kept under (after they were re-encrypted with it). */
export async function recordSecretKey(db: Db, key: Buffer, now: Date): Promise<void> {
  await db
    .insertInto('deployment_keys')
    .values({ purpose, fingerprint: keyFingerprint(key), recorded_utc: now.toISOString() })
    .onConflict((c) =>
      c.column('purpose').doUpdateSet({ fingerprint: keyFingerprint(key), recorded_utc: now.toISOString() }),
    )
    .execute();
}
