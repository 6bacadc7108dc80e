// Sample receivers made before they were switched off under .invalid pointed at example.com,
// example.net and example.org and were on: a change in a writable sample workspace, or a secret
// made for one of its endpoints, sent real requests there. Run at every start (with the
// demonstration workspace's check); it finds only the sample's own rows (their ids and old
// addresses), so it changes each once and never an endpoint someone made.
import type { Db } from '../../db/connect';
import { sampleId } from '../../db/sample/ids';
import { sampleEndpointUrls, sampleHookUrl } from '../../db/sample/webhooks';
import { nextChangeSeq } from '../../db/sequence';
import type { HookClient } from '../../db/values';

const oldEndpointUrls: Record<keyof typeof sampleEndpointUrls, string> = {
  crm: 'https://crm.example.com/tessera/webhooks?token=sample-3f9c',
  badges: 'https://badges.example.net/print-queue',
  relay: 'https://relay.example.org/hooks/old-chat',
};
const hookClients: HookClient[] = ['zapier', 'make', 'n8n'];
const oldHookUrl = (client: string) => `https://hooks.example.com/${client}/${client}`;

/** Re-points and switches off the old sample receivers of every workspace; answers how many. */
export async function retireOldSampleReceivers(db: Db, now: Date): Promise<number> {
  let changed = 0;
  const endpoints = await db
    .selectFrom('webhooks')
    .select(['id', 'workspace_id', 'url'])
    .where('url', 'in', Object.values(oldEndpointUrls))
    .execute();
  for (const row of endpoints) {
    const name = (Object.keys(oldEndpointUrls) as (keyof typeof oldEndpointUrls)[]).find(
      (k) => oldEndpointUrls[k] === row.url,
    )!;
    if (row.id !== sampleId(row.workspace_id, `webhooks/endpoint/${name}`)) continue;
    await db
      .updateTable('webhooks')
      .set({
        url: sampleEndpointUrls[name],
        active: 0,
        updated_utc: now.toISOString(),
        change_seq: await nextChangeSeq(db),
      })
      .where('id', '=', row.id)
      .execute();
    changed++;
  }
  const hooks = await db
    .selectFrom('hooks')
    .select(['id', 'workspace_id', 'url', 'client'])
    .where('url', 'in', hookClients.map(oldHookUrl))
    .execute();
  for (const row of hooks) {
    if (row.url !== oldHookUrl(row.client)) continue;
    if (row.id !== sampleId(row.workspace_id, `webhooks/hook/${row.client}`)) continue;
    await db
      .updateTable('hooks')
      .set({ url: sampleHookUrl(row.client, row.client), active: 0 })
      .where('id', '=', row.id)
      .execute();
    changed++;
  }
  return changed;
}
