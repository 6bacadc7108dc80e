// The attempts' results are written in groups (core/webhooks/attempt-results.ts): results that come
// in together are written in one transaction; one result the store refuses (its delivery removed
// meanwhile) does not lose the others of its group.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AttemptResults } from '../../core/webhooks/attempt-results';
import { newDelivery } from '../../core/webhooks/delivery-state';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let webhookId: string;

beforeAll(async () => {
  t = await startTestServer({ delivery: { allowPrivate: true } });
  ({ workspaceId } = await t.workspace('Results workspace', true));
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  const made = await t.api('/webhooks', {
    key,
    method: 'POST',
    body: { url: 'https://receiver.example/hook', eventTypes: ['attendee.registered'] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  webhookId = (made.body as { webhook: { webhookId: string } }).webhook.webhookId;
});
afterAll(async () => {
  await t?.close();
});

async function pendingDelivery(n: number): Promise<number> {
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
          target_id: webhookId,
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
  const succeeded = {
    outcome: 'succeeded' as const,
    statusCode: 204,
    durationMs: 3,
    retryAfterSeconds: null,
    error: null,
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
