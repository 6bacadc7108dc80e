// Re-encrypts every webhook signing secret under this deployment's key, from the key they were
// kept under (an old instance.key, or an old TESSERA_SECRET_KEY), with the other secrets sealed
// the same way that the caller names (the Stripe keys: core/payments/rekey-all-secrets.ts), and
// records the new key's fingerprint: what `tessera secrets rekey` does after the key changed. With
// the old key lost, the secrets no key opens can be discarded instead: those endpoints sign nothing
// until they are given a new secret (POST /webhooks/{webhookId}/secret). One transaction: all or
// nothing.
import type { Db } from '../../db/connect';
import type { Reseal } from '../platform/sealed-secrets';
import { deriveSecrets } from '../platform/secrets';
import { recordSecretKey } from './secret-key-check';
import { decryptSecret, encryptSecret } from './signing-secrets';

export type { Reseal };

export class RekeyRefused extends Error {}

/** Seals one secret under the new key (null: discarded); throws RekeyRefused when it may not discard. */

/** Secrets kept elsewhere under the same key: re-sealed in the rekey's transaction; answers how many rows held them. */
export type SealedElsewhere = (trx: Db, reseal: Reseal) => Promise<number>;

/**
 * The secrets' keys a key file may stand for: its text as TESSERA_SECRET_KEY takes it, and its
 * Base64 decoded as instance.key holds it (the same text can be either).
 */
export function secretKeysOfFile(text: string): Buffer[] {
  const value = text.trim();
  const bases = [Buffer.from(value, 'utf8')];
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) bases.push(Buffer.from(value, 'base64'));
  return bases.map((base) => deriveSecrets(base).webhookSecretKey);
}

function opens(key: Buffer, sealed: string): boolean {
  try {
    decryptSecret(key, sealed);
    return true;
  } catch {
    return false;
  }
}

export async function rekeySecrets(
  db: Db,
  oldKeys: readonly Buffer[],
  newKey: Buffer,
  now: Date,
  options: { discardUnreadable?: boolean; elsewhere?: Record<string, SealedElsewhere> } = {},
): Promise<{ endpoints: number; reencrypted: number; discarded: number } & Record<string, number>> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('webhooks')
      .select(['id', 'secret_enc', 'previous_secret_enc'])
      .where((w) => w.or([w('secret_enc', 'is not', null), w('previous_secret_enc', 'is not', null)]))
      .execute();
    let reencrypted = 0;
    let discarded = 0;
    /** The secret under the new key: as it is when it opens with it already (a rerun), else re-sealed. */
    const reseal: Reseal = (what, sealed) => {
      if (sealed === null || opens(newKey, sealed)) return sealed;
      const old = oldKeys.find((key) => opens(key, sealed));
      if (!old && options.discardUnreadable) {
        discarded += 1;
        return null;
      }
      if (!old)
        throw new RekeyRefused(
          `${what} opens neither with the key file's key nor with this start's: give the key file of the key the secrets were made with. Nothing was changed.`,
        );
      reencrypted += 1;
      return encryptSecret(newKey, decryptSecret(old, sealed));
    };
    for (const row of rows) {
      await trx
        .updateTable('webhooks')
        .set({
          secret_enc: reseal(`The signing secret of endpoint ${row.id}`, row.secret_enc),
          previous_secret_enc: reseal(`The signing secret of endpoint ${row.id}`, row.previous_secret_enc),
        })
        .where('id', '=', row.id)
        .execute();
    }
    const counts: Record<string, number> = {};
    for (const [name, resealThere] of Object.entries(options.elsewhere ?? {}))
      counts[name] = await resealThere(trx, reseal);
    await recordSecretKey(trx, newKey, now);
    return { endpoints: rows.length, ...counts, reencrypted, discarded };
  });
}
