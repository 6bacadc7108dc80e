// The dispatcher's results beside an endpoint's removal (docs/architecture.md, "Lock order:").
// A receiver answering 410 Gone is switched off (a webhook) or unsubscribed (a callback), and its
// waiting deliveries cancelled, in the transaction that writes the attempts' results; a removal of
// the endpoint cancels them too. The results took the attempted deliveries, then the endpoint, then
// the waiting deliveries; the removal the waiting deliveries, then the endpoint: on PostgreSQL the
// two met in a circle and one was ended (deadlock detected, run again by the write queue a second
// later). Both now take the endpoint first, as does the end of the key that made it (its last case:
// the key's revocation is the operator's, and the harness's calls are made with that key). The results are held before they cancel, while the
// removal runs (race-harness.ts waitsFor: it must wait, and nothing may run again).
import { describe, expect, it } from 'vitest';
import { revokeKeyOperation } from '../../core/admin/key-operations';
import type { Ctx } from '../../core/platform/context';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { type AttemptResult, AttemptResults } from '../../core/webhooks/attempt-results';
import type { Target } from '../../core/webhooks/claimed-deliveries';
import { newDelivery } from '../../core/webhooks/delivery-state';
import { createWebhook } from '../../core/webhooks/endpoints/create-webhook';
import { deleteWebhook } from '../../core/webhooks/endpoints/delete-webhook';
import { createHook } from '../../core/webhooks/subscriptions/create-hook';
import { deleteHook } from '../../core/webhooks/subscriptions/delete-hook';
import type { DeliveryTargetKind } from '../../db/values';
import { raceHarness } from '../support/race-harness';

const { call, waitsFor, db } = raceHarness('Delivery lock order');

/** Deliveries waiting for the target, oldest first. */
async function waitingFor(kind: DeliveryTargetKind, targetId: string, count: number) {
  const workspaceId = (await db().selectFrom('workspaces').select('id').executeTakeFirstOrThrow()).id;
  const now = new Date().toISOString();
  const rows = [];
  for (let i = 0; i < count; i++)
    rows.push(
      await db()
        .insertInto('deliveries')
        .values(
          newDelivery(
            {
              workspace_id: workspaceId,
              outbox_id: null,
              message_id: `msg_race_${kind}_${targetId}_${i}`,
              type: 'webhook.test',
              payload: JSON.stringify({ type: 'webhook.test', timestamp: now, data: {} }),
              target_kind: kind,
              target_id: targetId,
            },
            now,
          ),
        )
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  return rows;
}

/** The receiver answered 410 Gone to one attempt: its result, written as the dispatcher writes it. */
const goneResult =
  (attempt: Omit<AttemptResult, 'result'>) =>
  (ctx: Ctx): Promise<void> =>
    new AttemptResults(ctx.services).record({
      ...attempt,
      result: {
        outcome: 'gone',
        reason: 'httpStatus',
        statusCode: 410,
        durationMs: 3,
        retryAfterSeconds: null,
        error: null,
      },
    });

const states = async (ids: number[]) =>
  (
    await db().selectFrom('deliveries').select(['id', 'state']).where('id', 'in', ids).orderBy('id').execute()
  ).map((d) => d.state);

/** A webhook endpoint made by the harness's key, as stored. */
async function webhookAt(url: string) {
  const { webhook } = await call(createWebhook, { url, eventTypes: ['attendee.registered'] });
  return db()
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', webhook.webhookId)
    .executeTakeFirstOrThrow();
}

/**
 * Two deliveries waiting for the target; the second attempted, its receiver answering 410 Gone, its
 * result held before it cancels the other while `meanwhile` runs, which must wait for it. Checks the
 * result was written (the attempted one failed, the other cancelled); answers what meanwhile did.
 */
async function goneBeside(target: Target, meanwhile: [AnyOperation, unknown]): Promise<unknown> {
  const [waiting, attempted] = await waitingFor(target.kind, target.row.id, 2);
  const [written, answered] = await waitsFor(
    goneResult({ delivery: attempted!, target }),
    /^update "deliveries" set "state"/,
    meanwhile,
  );
  expect(written).toBeUndefined();
  expect(await states([waiting!.id, attempted!.id])).toEqual(['cancelled', 'failed']);
  return answered;
}

describe('a result of 410 Gone beside the removal of its endpoint', () => {
  it('a webhook endpoint: switched off by the result, then removed', async () => {
    const row = await webhookAt('https://receiver.example.org/gone');
    expect(await goneBeside({ kind: 'webhook', row }, [deleteWebhook, { webhookId: row.id }])).toEqual({
      webhookId: row.id,
      deleted: true,
    });
  });

  it('a callback: unsubscribed by the result, then its removal answers 404', async () => {
    const hook = await call(createHook, {
      url: 'https://hooks.example.org/gone',
      event: 'attendee.registered',
    });
    const row = await db()
      .selectFrom('hooks')
      .selectAll()
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(await goneBeside({ kind: 'hook', row }, [deleteHook, { hookId: row.id }])).toBe('notFound');
  });

  it('an endpoint of a key being revoked: switched off by the result, which the revocation then finds', async () => {
    const row = await webhookAt('https://receiver.example.org/revoked');
    expect(
      await goneBeside({ kind: 'webhook', row }, [revokeKeyOperation, { apiKeyId: row.api_key_id }]),
    ).toMatchObject({ alreadyRevoked: false, endpointsSwitchedOff: 0 });
  });
});
