// Operator commands on workspaces (the CLI's), outside any API key.

import type { Db } from '../../db/connect';
import { fillSampleData } from '../../db/sample';
import type { Clock } from '../platform/clock';
import { newId } from '../platform/ids';

export async function createWorkspace(db: Db, clock: Clock, input: { name: string; sample?: boolean }) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new Error('A workspace name must be 1 to 200 characters.');
  const workspaceId = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('workspaces')
      .values({ id: workspaceId, name, demonstration: 0, created_utc: clock.now().toISOString() })
      .execute();
    if (input.sample) await fillSampleData(trx, { workspaceId, now: clock.now() });
  });
  return { workspaceId, name };
}

export async function findWorkspace(db: Db, workspaceId: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
}
