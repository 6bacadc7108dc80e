// Operator commands on workspaces (the CLI's), outside any API key.

import type { Db } from '../../db/connect';
import { fillSampleData } from '../../db/sample';
import type { Clock } from '../platform/clock';
import { newId } from '../platform/ids';
import { addSampleWebhooks } from '../webhooks/sample-webhooks';

/** `secretKey` encrypts the sample endpoints' signing secrets (none without a master key). */
export async function createWorkspace(
  db: Db,
  clock: Clock,
  input: { name: string; sample?: boolean },
  secretKey: Buffer | null = null,
) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new Error('A workspace name must be 1 to 200 characters.');
  const workspaceId = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('workspaces')
      .values({ id: workspaceId, name, demonstration: 0, created_utc: clock.now().toISOString() })
      .execute();
    if (input.sample) {
      await fillSampleData(trx, { workspaceId, now: clock.now() });
      await addSampleWebhooks(trx, { workspaceId, now: clock.now(), secretKey, keyId: null });
    }
  });
  return { workspaceId, name };
}

export async function findWorkspace(db: Db, workspaceId: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
}

/** Every workspace of the data folder, the demonstration first, with counts of events and keys. */
export async function listWorkspaces(db: Db) {
  const rows = await db
    .selectFrom('workspaces')
    .select((eb) => [
      'workspaces.id',
      'workspaces.name',
      'workspaces.demonstration',
      'workspaces.created_utc',
      eb
        .selectFrom('events')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('events.workspace_id', '=', 'workspaces.id')
        .as('events'),
      eb
        .selectFrom('api_keys')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('api_keys.workspace_id', '=', 'workspaces.id')
        .where('api_keys.revoked_utc', 'is', null)
        .as('keys'),
    ])
    .orderBy('workspaces.demonstration', 'desc')
    .orderBy('workspaces.created_utc')
    .orderBy('workspaces.id')
    .execute();
  return rows.map((w) => ({
    workspaceId: w.id,
    name: w.name,
    demonstration: w.demonstration === 1,
    events: Number(w.events ?? 0),
    keys: Number(w.keys ?? 0),
    createdUtc: w.created_utc,
  }));
}
