// The demonstration workspace: created on first start with deterministic data, reached with the
// published demonstration key, read-only (every write answers 403 demoWorkspace).

import type { Db } from '../../db/connect';
import { transactionLock } from '../../db/dialect';
import { fillSampleData } from '../../db/sample';
import type { Clock } from '../platform/clock';
import { keyFromParts } from '../platform/keys';
import { presets } from '../platform/scopes';
import { addSampleWebhooks, retireOldSampleReceivers } from '../webhooks';

export const demoWorkspaceId = '00000000-0000-4000-8000-00000000d3e0';
const demoKeyId = '00000000-0000-4000-8000-00000000d3e1';

/** The published demonstration key: anyone may use it; it only reads. */
export const demoKey = keyFromParts('demo0000read', 'TesseraDemonstrationWorkspaceReadOnlyKey001');

/**
 * `secretKey` encrypts the sample endpoints' signing secrets (none without a master key). One
 * transaction, under a lock: processes starting together on one PostgreSQL database make it once.
 */
export function ensureDemoWorkspace(
  db: Db,
  clock: Clock,
  secretKey: Buffer | null = null,
): Promise<{ created: boolean }> {
  return db.transaction().execute(async (trx) => {
    await transactionLock(trx, 'demonstration workspace');
    return ensureIn(trx, clock, secretKey);
  });
}

async function ensureIn(db: Db, clock: Clock, secretKey: Buffer | null): Promise<{ created: boolean }> {
  // Sample receivers of older versions (the demonstration's and `--sample` workspaces') sent for real.
  await retireOldSampleReceivers(db, clock.now());
  const existing = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', demoWorkspaceId)
    .executeTakeFirst();
  if (existing) {
    // Keys of demonstration workspaces made before it held only read scopes are brought in line.
    await db
      .updateTable('api_keys')
      .set({ scopes: JSON.stringify(presets.assistant) })
      .where('id', '=', demoKeyId)
      .execute();
    // Demonstration workspaces made before webhooks existed get the sample endpoints once.
    const webhook = await db
      .selectFrom('webhooks')
      .select('id')
      .where('workspace_id', '=', demoWorkspaceId)
      .executeTakeFirst();
    if (!webhook)
      await addSampleWebhooks(db, {
        workspaceId: demoWorkspaceId,
        now: clock.now(),
        secretKey,
        keyId: demoKeyId,
      });
    return { created: false };
  }
  const now = clock.now();
  await db
    .insertInto('workspaces')
    .values({
      id: demoWorkspaceId,
      name: 'Tessera demonstration',
      demonstration: 1,
      created_utc: now.toISOString(),
    })
    .execute();
  await db
    .insertInto('api_keys')
    .values({
      id: demoKeyId,
      workspace_id: demoWorkspaceId,
      name: 'Demonstration key',
      prefix: demoKey.prefix,
      secret_hash: demoKey.secretHash,
      // Every read scope (the assistant preset): what it can use. A write is refused as
      // demoWorkspace before any scope is looked at.
      scopes: JSON.stringify(presets.assistant),
      legacy_scopes: null,
      rate_per_minute: null,
      created_utc: now.toISOString(),
      expires_utc: null,
      revoked_utc: null,
      last_used_utc: null,
    })
    .execute();
  await fillSampleData(db, { workspaceId: demoWorkspaceId, now, demonstration: true });
  await addSampleWebhooks(db, { workspaceId: demoWorkspaceId, now, secretKey, keyId: demoKeyId });
  return { created: true };
}
