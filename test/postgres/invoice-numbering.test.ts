// Invoice numbers under concurrent payments on PostgreSQL, across two `tessera serve` processes on
// one database (issue 26, item 2): 200 orders marked paid at once through both, taking turns, give
// 200 invoices numbered 1 to 200 in the event's series, without a gap or a repeat (each payment
// takes its place from the event's counter row in its own transaction: core/finance/invoice-series.ts).
// Needs PostgreSQL's server binaries; without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { postgresHere } from '../support/postgres';
import { call, endAll, type Spawned, serve, tessera, workspaceWithKey } from '../support/spawned';

const available = postgresHere('the invoice numbering test');

describe.skipIf(!available)('invoice numbers of payments through two processes on PostgreSQL', () => {
  let cluster: Cluster;
  let env: Record<string, string>;
  let a: Spawned;
  let b: Spawned;
  let key: string;
  let db: Db;
  let closeDb: () => Promise<void>;
  const dirs = [mkdtempSync(join(tmpdir(), 'invoices-a-')), mkdtempSync(join(tmpdir(), 'invoices-b-'))];

  beforeAll(async () => {
    cluster = await startCluster();
    env = {
      TESSERA_DATABASE_URL: cluster.url,
      TESSERA_SECRET_KEY: 'invoice-numbering-master-key-0123456789',
    };
    [a, b] = await Promise.all([serve(dirs[0]!, env), serve(dirs[1]!, env)]);
    const { workspaceId } = await workspaceWithKey(dirs[0]!, 'Invoices', env);
    // A key whose rate limit leaves room for the 200 payments at once.
    ({ key } = await tessera(
      [
        'key',
        'create',
        '--workspace',
        workspaceId,
        '--name',
        'payments',
        '--preset',
        'everything',
        '--expires',
        'never',
        '--rate',
        '10000',
        '--data',
        dirs[0]!,
      ],
      env,
    ));
    ({ db, close: closeDb } = openDatabase(cluster.url));
    await migrateToLatest(db);
  });

  afterAll(async () => {
    await endAll();
    await closeDb?.();
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('gives 200 concurrent payments 200 invoices numbered without a gap or a repeat', async () => {
    const made = await call(a, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const eventId = made.body.eventId as string;
    const settings = await call(b, `/events/${eventId}/invoicing`, {
      key,
      method: 'PATCH',
      body: { enabled: true, sellerName: 'Parallel AS', prefix: 'PAR-' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const typeId = await pricedTicketType(db, eventId, 50_000, 25);
    const orders = [];
    for (let i = 0; i < 200; i++) orders.push(await pendingOrder(db, eventId, typeId, 1));

    const answers = await Promise.all(
      orders.map(({ orderId }, i) =>
        call(i % 2 === 0 ? a : b, `/events/${eventId}/orders/${orderId}/mark-paid`, {
          key,
          method: 'POST',
          body: { method: 'transfer', provider: 'Bank' },
        }),
      ),
    );
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.map((r) => JSON.stringify(r.body))).toEqual([]);

    const invoices = await db
      .selectFrom('invoices')
      .select(['series_no', 'number', 'order_id', 'kind'])
      .where('event_id', '=', eventId)
      .orderBy('series_no')
      .execute();
    expect(invoices).toHaveLength(200);
    expect(invoices.map((i) => Number(i.series_no))).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(invoices.map((i) => i.number)).toEqual(
      invoices.map((i) => `PAR-${String(i.series_no).padStart(4, '0')}`),
    );
    expect(new Set(invoices.map((i) => i.order_id)).size).toBe(200);
    const series = await db
      .selectFrom('invoice_series')
      .select('last_no')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(Number(series.last_no)).toBe(200);
  }, 180_000);
});
