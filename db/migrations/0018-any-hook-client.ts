// Any automation platform may subscribe through /hooks, not only Zapier, Make and n8n: the
// platform's name (as sent, read from the User-Agent, or "unknown") is kept as a short token, so
// the column's fixed list gives way to a length bound (core/webhooks/subscriptions/hook-client.ts).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';
import { rebuildTable, withForeignKeysOff } from '../rebuild-table';

export async function up(db: Kysely<any>): Promise<void> {
  await withForeignKeysOff(db, (trx) =>
    rebuildTable(trx, 'hooks', {
      dropColumnChecks: ['client'],
      checks: { client_length: 'length("client") between 1 and 40' },
    }),
  );
}
