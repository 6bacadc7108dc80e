// The attempts' results are written in groups (core/webhooks/attempt-results.ts): results that come
// in together are written in one transaction; one result the store refuses (its delivery removed
// meanwhile) does not lose the others of its group. On PostgreSQL a group updates its endpoints in
// the order of their ids, so two processes' result writers never wait on each other in a circle.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AttemptResults } from '../../core/webhooks/attempt-results';
import { newDelivery } from '../../core/webhooks/delivery-state';
import { someoneWaitsOnALock } from '../support/lock-waits';
import { startTestServer, type TestServer } from '../support/server';
import { signal } from '../support/signal';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let workspaceId: string;
let key: string;
let webhookId: string;

beforeAll(async () => {
  t = await startTestServer({ delivery: { allowPrivate: true } });
  ({ workspaceId } = await t.workspace('Results workspace', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  webhookId = await newWebhook('hook');
});
afterAll(async () => {
  await t?.close();
});

async function newWebhook(path: string): Promise<string> {
  const made = await t.api('/webhooks', {
    key,
    method: 'POST',
    body: { url: `https://receiver.example.com/${path}`, eventTypes: ['attendee.registered'] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return (made.body as { webhook: { webhookId: string } }).webhook.webhookId;
}

const succeeded = {
  outcome: 'succeeded' as const,
  reason: null,
  statusCode: 204,
  durationMs: 3,
  retryAfterSeconds: null,
  error: null,
};

async function pendingDelivery(n: number, to = webhookId): Promise<number> {
  const now = new Date().toISOString();
  const row = await t.server.services.db
    .insertInto('deliveries')
    .values(
      newDelivery(
        {
          workspace_id: workspaceId,
          outbox_id: null,
          message_id: `msg_results_${n}`,
          type: 'attendee.registered',
          payload: '{}',
          target_kind: 'webhook',
          target_id: to,
        },
        now,
      ),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

it('writes the results that gather together, and each of a group one refused result is in', async () => {
  const { db } = t.server.services;
  const results = new AttemptResults(t.server.services);
  const target = {
    kind: 'webhook' as const,
    row: await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirstOrThrow(),
  };
  const ids = [await pendingDelivery(1), await pendingDelivery(2), await pendingDelivery(3)];
  const rows = await db.selectFrom('deliveries').selectAll().where('id', 'in', ids).orderBy('id').execute();
  // The second's delivery goes away before its result is written: its attempt refers to nothing.
  const removed = { ...rows[1]!, id: 2_000_000_000 };
  // The three come in together: one group, whose refusal has each written alone.
  const outcomes = await Promise.allSettled([
    results.record({ delivery: rows[0]!, target, result: succeeded }),
    results.record({ delivery: removed, target, result: succeeded }),
    results.record({ delivery: rows[2]!, target, result: succeeded }),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  const after = await db
    .selectFrom('deliveries')
    .select(['id', 'state', 'attempts'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  expect(after).toEqual([
    { id: ids[0], state: 'succeeded', attempts: 1 },
    { id: ids[1], state: 'pending', attempts: 0 },
    { id: ids[2], state: 'succeeded', attempts: 1 },
  ]);
  const attempts = await db
    .selectFrom('delivery_attempts')
    .select(['delivery_id', 'attempt', 'outcome'])
    .where('delivery_id', 'in', ids)
    .orderBy('delivery_id')
    .execute();
  expect(attempts).toEqual([
    { delivery_id: ids[0], attempt: 1, outcome: 'succeeded' },
    { delivery_id: ids[2], attempt: 1, outcome: 'succeeded' },
  ]);
  const webhook = await db
    .selectFrom('webhooks')
    .select('last_status')
    .where('id', '=', webhookId)
    .executeTakeFirstOrThrow();
  expect(webhook.last_status).toBe('succeeded');
});

it.runIf(onPostgres)(
  'updates a group’s endpoints in the order of their ids, taking none before the first',
  async () => {
    const { db } = t.server.services;
    const [first, second] = [await newWebhook('first'), await newWebhook('second')].sort();
    const targetOf = async (id: string) => ({
      kind: 'webhook' as const,
      row: await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    });
    const deliveryTo = async (n: number, id: string) =>
      db
        .selectFrom('deliveries')
        .selectAll()
        .where('id', '=', await pendingDelivery(n, id))
        .executeTakeFirstOrThrow();
    const toSecond = await deliveryTo(10, second!);
    const toFirst = await deliveryTo(11, first!);

    // Another writer (another process's results, say) holds the first endpoint's row.
    const holding = signal();
    const release = signal();
    let secondTaken = false;
    const other = db.transaction().execute(async (trx) => {
      await sql`select id from webhooks where id = ${first} for update`.execute(trx);
      holding.fire();
      await release.fired;
      // The group waits on the first endpoint: it must not hold the second meanwhile (it would, in the
      // order its results came, and the two would wait on each other until the database ended one).
      await sql`set local lock_timeout = '500ms'`.execute(trx);
      await sql`update webhooks set last_status = 'failed' where id = ${second}`.execute(trx);
      secondTaken = true;
    });
    await holding.fired;
    // The second endpoint's result first: the order they came in. Both recorded in the same moment,
    // so they gather into one group (a read between them could outlast the gathering's 2 ms).
    const results = new AttemptResults(t.server.services);
    const [secondTarget, firstTarget] = [await targetOf(second!), await targetOf(first!)];
    const written = Promise.all([
      results.record({ delivery: toSecond, target: secondTarget, result: succeeded }),
      results.record({ delivery: toFirst, target: firstTarget, result: succeeded }),
    ]);
    await someoneWaitsOnALock(db);
    release.fire();
    await other;
    await written;
    expect(secondTaken).toBe(true);
    const states = await db
      .selectFrom('webhooks')
      .select(['id', 'last_status'])
      .where('id', 'in', [first!, second!])
      .orderBy('id')
      .execute();
    expect(states).toEqual([
      { id: first, last_status: 'succeeded' },
      { id: second, last_status: 'succeeded' },
    ]);
  },
);
