// A key that ends (Authentication 5): revoking it (`tessera key revoke`) or its expiry (the job that
// runs every minute) removes the automation subscriptions it made, switches off the webhook
// endpoints it made and cancels what was still waiting for them, once; another key's stay. And the
// sample webhooks of the demonstration workspace and of `workspace create --sample`: endpoints (all
// switched off under .invalid, one as gone), subscriptions of the three platforms, deliveries in
// every outcome, the same on every deployment made at the same moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../core/admin/api-keys';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { maxAttempts } from '../../core/platform/retry-schedule';
import { endExpiredKeys } from '../../core/webhooks/end-key';
import { expectProblem } from '../support/fixtures';
import { setClock } from '../support/sales';
import { type ApiAnswer, MutableClock, startTestServer, type TestServer } from '../support/server';

const secretKey = 'key-end-test-master-key-0123456789abcdef';
const day = 86_400_000;
// A public address literal: checked without a name lookup. Nothing is sent (no dispatcher).
const receiver = (name: string) => `https://93.184.215.14/${name}?token=abc`;

let t: TestServer;
const clock = new MutableClock();
let startedAt: string;

beforeAll(async () => {
  startedAt = clock.now().toISOString();
  // The test runs the expiry job itself: the minute job must not do it between a clock move and
  // the test's own call (it once did, and the call found nothing left to do).
  t = await startTestServer({
    clock,
    env: { TESSERA_SECRET_KEY: secretKey },
    dispatcher: false,
    scheduledJobs: false,
  });
});
afterAll(async () => t.close());

const db = () => t.server.services.db;

async function hook(key: string, name: string): Promise<string> {
  const res = await t.api('/hooks', {
    key,
    method: 'POST',
    body: { url: receiver(name), event: 'order.paid', client: 'zapier' },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function endpoint(key: string, name: string): Promise<string> {
  const res = await t.api('/webhooks', {
    key,
    method: 'POST',
    body: { url: receiver(name), eventTypes: ['order.paid'], description: name },
  });
  expect(res.status).toBe(201);
  return res.body.webhook.webhookId;
}

/**
 * A delivery still waiting for an endpoint or an automation subscription (what the dispatcher
 * would have queued; a test message through the API is sent at once, to an address here public).
 */
async function pendingDelivery(
  workspaceId: string,
  kind: 'webhook' | 'hook',
  targetId: string,
): Promise<number> {
  const now = clock.now().toISOString();
  const { id } = await db()
    .insertInto('deliveries')
    .values({
      workspace_id: workspaceId,
      outbox_id: null,
      message_id: `msg_${targetId.replace(/-/g, '')}`,
      type: kind === 'webhook' ? 'webhook.test' : 'order.paid',
      payload: JSON.stringify({
        type: kind === 'webhook' ? 'webhook.test' : 'order.paid',
        timestamp: now,
        data: {},
      }),
      target_kind: kind,
      target_id: targetId,
      state: 'pending',
      attempts: 0,
      next_attempt_utc: now,
      claimed_until_utc: null,
      last_status_code: null,
      created_utc: now,
      updated_utc: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function deliveryState(id: number) {
  return db()
    .selectFrom('deliveries')
    .select(['state', 'next_attempt_utc'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function endedHandled(apiKeyId: string) {
  const row = await db()
    .selectFrom('api_keys')
    .select('ended_handled_utc')
    .where('id', '=', apiKeyId)
    .executeTakeFirstOrThrow();
  return row.ended_handled_utc;
}

/** Everything of a workspace the ending of a key may change. */
async function snapshot(workspaceId: string) {
  const [hooks, webhooks, deliveries, keys] = await Promise.all([
    db().selectFrom('hooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    db().selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    db().selectFrom('deliveries').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    db().selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
  ]);
  return { hooks, webhooks, deliveries, keys };
}

const ids = (res: ApiAnswer) =>
  res.body.data.map((x: { id?: string; webhookId?: string }) => x.id ?? x.webhookId);

/** What one key makes: two subscriptions, an endpoint with a test message waiting, one waiting for a subscription. */
async function makeThings(workspaceId: string, key: string, name: string) {
  const hooks = [await hook(key, `${name}-1`), await hook(key, `${name}-2`)];
  const webhookId = await endpoint(key, name);
  const endpointDelivery = await pendingDelivery(workspaceId, 'webhook', webhookId);
  const hookDelivery = await pendingDelivery(workspaceId, 'hook', hooks[0]!);
  return { hooks, webhookId, endpointDelivery, hookDelivery };
}

async function expectIntact(key: string, made: Awaited<ReturnType<typeof makeThings>>) {
  const list = await t.api('/hooks', { key });
  expect(ids(list)).toEqual(expect.arrayContaining(made.hooks));
  for (const id of made.hooks)
    expect((await t.api(`/hooks/${id}`, { key })).body).toMatchObject({ id, active: true });
  const webhook = await t.api(`/webhooks/${made.webhookId}`, { key });
  expect(webhook.body).toMatchObject({ active: true, disabledReason: null });
  expect((await deliveryState(made.endpointDelivery)).state).toBe('pending');
  expect((await deliveryState(made.hookDelivery)).state).toBe('pending');
}

async function expectEnded(
  viewer: string,
  made: Awaited<ReturnType<typeof makeThings>>,
  reason: 'keyRevoked' | 'keyExpired',
) {
  // Removed, not merely switched off: gone from the list and from the database.
  const list = await t.api('/hooks', { key: viewer });
  expect(list.status).toBe(200);
  for (const id of made.hooks) {
    expect(ids(list)).not.toContain(id);
    expectProblem(await t.api(`/hooks/${id}`, { key: viewer }), 404, 'notFound');
  }
  expect(await db().selectFrom('hooks').select('id').where('id', 'in', made.hooks).execute()).toEqual([]);
  // The endpoint stays, switched off, saying why.
  const webhook = await t.api(`/webhooks/${made.webhookId}`, { key: viewer });
  expect(webhook.status).toBe(200);
  expect(webhook.body).toMatchObject({ webhookId: made.webhookId, active: false, disabledReason: reason });
  const listed = (await t.api('/webhooks', { key: viewer })).body.data.find(
    (w: { webhookId: string }) => w.webhookId === made.webhookId,
  );
  expect(listed).toMatchObject({ active: false, disabledReason: reason });
  // What was waiting is cancelled, not tried.
  const deliveries = await t.api(`/webhooks/${made.webhookId}/deliveries`, { key: viewer });
  expect(deliveries.body.data).toEqual([
    expect.objectContaining({
      deliveryId: made.endpointDelivery,
      type: 'webhook.test',
      state: 'cancelled',
      nextAttemptUtc: null,
      attempts: [],
    }),
  ]);
  expect(await deliveryState(made.endpointDelivery)).toEqual({ state: 'cancelled', next_attempt_utc: null });
  expect(await deliveryState(made.hookDelivery)).toEqual({ state: 'cancelled', next_attempt_utc: null });
}

describe('revoking a key', () => {
  let workspaceId: string;
  let ender: { apiKeyId: string; key: string };
  let keeper: { apiKeyId: string; key: string };
  let ended: Awaited<ReturnType<typeof makeThings>>;
  let kept: Awaited<ReturnType<typeof makeThings>>;

  beforeAll(async () => {
    ({ workspaceId } = await t.workspace('Revocation workspace'));
    ender = await t.key({ workspaceId, preset: 'everything', expires: 'never', name: 'Zapier key' });
    keeper = await t.key({ workspaceId, preset: 'everything', expires: 'never', name: 'Office key' });
    ended = await makeThings(workspaceId, ender.key, 'ender');
    kept = await makeThings(workspaceId, keeper.key, 'keeper');
  });

  it('removes the subscriptions it made, switches off its endpoints and cancels what waited for them', async () => {
    await expectIntact(ender.key, ended);
    expect(await endedHandled(ender.apiKeyId)).toBeNull();
    const result = await revokeKey(db(), t.server.services.clock, ender.apiKeyId);
    expect(result).toMatchObject({
      apiKeyId: ender.apiKeyId,
      alreadyRevoked: false,
      subscriptionsRemoved: 2,
      endpointsSwitchedOff: 1,
    });
    await expectEnded(keeper.key, ended, 'keyRevoked');
    const handledAt = await endedHandled(ender.apiKeyId);
    expect(handledAt).not.toBeNull();
    expect(handledAt! >= result.revokedUtc).toBe(true);
    expectProblem(await t.api('/hooks', { key: ender.key }), 401, 'keyRevoked');
  });

  it("leaves another key's subscriptions, endpoints and deliveries alone", async () => {
    await expectIntact(keeper.key, kept);
    expect(await endedHandled(keeper.apiKeyId)).toBeNull();
  });

  it('changes nothing more when revoked again, nor when the expiry job runs', async () => {
    const before = await snapshot(workspaceId);
    const again = await revokeKey(db(), t.server.services.clock, ender.apiKeyId);
    expect(again).toMatchObject({ alreadyRevoked: true, subscriptionsRemoved: 0, endpointsSwitchedOff: 0 });
    await endExpiredKeys(t.server.services);
    expect(await snapshot(workspaceId)).toEqual(before);
  });

  it("does not touch the demonstration workspace's sample subscriptions and endpoints", async () => {
    const demo = t.server.demoKey;
    expect((await t.api('/hooks', { key: demo })).body.data).toHaveLength(3);
    // Switched off as they were made (one as gone): none by the key's end.
    const reasons = (await t.api('/webhooks', { key: demo })).body.data.map((w: any) => w.disabledReason);
    expect(reasons.sort()).toEqual(['gone', null, null]);
  });
});

describe('a key that expires', () => {
  let workspaceId: string;
  let expiring: { apiKeyId: string; key: string };
  let staying: { apiKeyId: string; key: string };
  let ended: Awaited<ReturnType<typeof makeThings>>;
  let kept: Awaited<ReturnType<typeof makeThings>>;
  let moved = 0;

  beforeAll(async () => {
    ({ workspaceId } = await t.workspace('Expiry workspace'));
    expiring = await t.key({ workspaceId, preset: 'everything', expires: '30', name: 'Thirty days' });
    staying = await t.key({ workspaceId, preset: 'everything', expires: '90', name: 'Ninety days' });
    ended = await makeThings(workspaceId, expiring.key, 'expiring');
    kept = await makeThings(workspaceId, staying.key, 'staying');
  });
  afterAll(() => clock.advance(-moved));

  it('keeps everything until it expires: the job before then ends nothing of it', async () => {
    clock.advance(29 * day);
    moved += 29 * day;
    await endExpiredKeys(t.server.services);
    expect(await endedHandled(expiring.apiKeyId)).toBeNull();
    await expectIntact(expiring.key, ended);
  });

  it('once past expiry, the job removes its subscriptions, switches off its endpoints, cancels what waited', async () => {
    clock.advance(2 * day);
    moved += 2 * day;
    const handled = await endExpiredKeys(t.server.services);
    expect(handled).toBe(1);
    const { expires_utc } = await db()
      .selectFrom('api_keys')
      .select('expires_utc')
      .where('id', '=', expiring.apiKeyId)
      .executeTakeFirstOrThrow();
    const handledAt = await endedHandled(expiring.apiKeyId);
    expect(handledAt).not.toBeNull();
    expect(handledAt! >= expires_utc!).toBe(true);
    expectProblem(await t.api('/hooks', { key: expiring.key }), 401, 'keyExpired');
    await expectEnded(staying.key, ended, 'keyExpired');
    await expectIntact(staying.key, kept);
    expect(await endedHandled(staying.apiKeyId)).toBeNull();
  });

  it('running the job again changes nothing (done once per key)', async () => {
    const before = await snapshot(workspaceId);
    expect(before.keys.find((k) => k.id === expiring.apiKeyId)?.ended_handled_utc).not.toBeNull();
    clock.advance(60_000);
    moved += 60_000;
    expect(await endExpiredKeys(t.server.services)).toBe(0);
    expect(await snapshot(workspaceId)).toEqual(before);
  });
});

/** An API view of a workspace's sample webhooks: endpoints, subscriptions, every delivery. */
async function sampleView(target: TestServer, key: string) {
  const webhooks = await target.api('/webhooks', { key });
  expect(webhooks.status).toBe(200);
  const hooks = await target.api('/hooks', { key });
  expect(hooks.status).toBe(200);
  const deliveries: Record<string, any[]> = {};
  for (const w of webhooks.body.data) {
    const res = await target.api(`/webhooks/${w.webhookId}/deliveries?limit=100`, { key });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    deliveries[w.webhookId] = res.body.data;
  }
  return { webhooks: webhooks.body, hooks: hooks.body, deliveries };
}

type SampleView = Awaited<ReturnType<typeof sampleView>>;

/** What the sample must show, whichever workspace holds it. */
async function expectSampleWebhooks(view: SampleView, key: string, createdBy: string) {
  const { webhooks, hooks, deliveries } = view;
  expect(webhooks.most).toBe(20);
  expect(webhooks.data).toHaveLength(3);
  for (const w of webhooks.data) expect(w.createdBy).toBe(createdBy);
  // Every sample endpoint is switched off, at a name that never resolves: the sample sends nothing.
  for (const w of webhooks.data) {
    expect(w.active).toBe(false);
    expect(w.host).toMatch(/\.invalid$/);
  }
  const off = webhooks.data.filter((w: any) => w.disabledReason !== null);
  expect(off).toEqual([
    expect.objectContaining({ active: false, disabledReason: 'gone', lastStatus: 'failed' }),
  ]);
  // The query part of an address (a token) is hidden.
  expect(JSON.stringify(webhooks)).not.toContain('token=');
  expect(webhooks.data.some((w: any) => w.url.endsWith('?…'))).toBe(true);

  expect(hooks.data.map((h: any) => h.client).sort()).toEqual(['make', 'n8n', 'zapier']);
  for (const h of hooks.data) expect(h.active).toBe(false);
  const zapier = hooks.data.find((h: any) => h.client === 'zapier');
  expect(zapier.eventId).not.toBeNull();
  expect((await t.api(`/events/${zapier.eventId}`, { key })).status).toBe(200);
  // A subscription's callback address is never shown.
  expect(JSON.stringify(hooks)).not.toContain('acme.invalid');

  const all = Object.values(deliveries).flat();
  expect(new Set(all.map((d) => d.state))).toEqual(new Set(['succeeded', 'failed', 'cancelled']));
  const outcomes = new Set(all.flatMap((d) => d.attempts.map((a: any) => a.outcome)));
  for (const outcome of ['succeeded', 'httpError', 'timeout', 'networkError', 'gone'])
    expect(outcomes.has(outcome), outcome).toBe(true);
  for (const d of all) {
    // Nothing is left pending: the sample never sends anything by itself.
    expect(d.nextAttemptUtc).toBeNull();
    expect(d.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(['attendee.registered', 'order.paid']).toContain(d.type);
    expect(d.attempts.map((a: any) => a.attempt)).toEqual(d.attempts.map((_: unknown, i: number) => i + 1));
    if (d.attempts.length > 0) expect(d.attempts.at(-1).nextAttemptUtc).toBeNull();
    for (const a of d.attempts.slice(0, -1)) expect(a.nextAttemptUtc > a.atUtc).toBe(true);
  }

  // The endpoint that met 410 Gone: the delivery that met it failed, the one after it cancelled.
  const gone = deliveries[off[0].webhookId]!;
  expect(gone.map((d) => d.state).sort()).toEqual(['cancelled', 'failed']);
  expect(gone.find((d) => d.state === 'failed').attempts).toEqual([
    expect.objectContaining({ attempt: 1, statusCode: 410, outcome: 'gone' }),
  ]);
  expect(gone.find((d) => d.state === 'cancelled').attempts).toEqual([]);
  // One given up after every attempt timed out or found nobody.
  const givenUp = all.filter((d) => d.state === 'failed' && d.attempts.length === maxAttempts);
  expect(givenUp).toHaveLength(1);
  expect(new Set(givenUp[0].attempts.map((a: any) => a.outcome))).toEqual(
    new Set(['timeout', 'networkError']),
  );
  for (const a of givenUp[0].attempts) expect(a.statusCode).toBeNull();
  // One that succeeded after a 503.
  expect(
    all.some(
      (d) =>
        d.state === 'succeeded' &&
        d.attempts.length === 2 &&
        d.attempts[0].outcome === 'httpError' &&
        d.attempts[0].statusCode === 503 &&
        d.attempts[1].outcome === 'succeeded' &&
        d.attempts[1].statusCode === 200,
    ),
  ).toBe(true);
  for (const d of all.filter((x) => x.state === 'succeeded'))
    expect(d.attempts.at(-1).outcome).toBe('succeeded');
}

/** The sample with the ids and times of its workspace left out. */
function shape(view: SampleView) {
  const byDescription = [...view.webhooks.data].sort((a, b) => a.description.localeCompare(b.description));
  return {
    webhooks: byDescription.map((w) => ({
      url: w.url,
      host: w.host,
      description: w.description,
      eventTypes: w.eventTypes,
      active: w.active,
      disabledReason: w.disabledReason,
      lastStatus: w.lastStatus,
      deliveries: view.deliveries[w.webhookId]!.map((d) => ({
        type: d.type,
        state: d.state,
        attempts: d.attempts.map((a: any) => ({
          attempt: a.attempt,
          statusCode: a.statusCode,
          outcome: a.outcome,
          durationMs: a.durationMs,
          error: a.error,
        })),
      })),
    })),
    hooks: [...view.hooks.data]
      .sort((a, b) => a.client.localeCompare(b.client))
      .map((h) => ({ event: h.event, client: h.client, active: h.active, oneEvent: h.eventId !== null })),
  };
}

describe('sample webhooks', () => {
  let demoView: SampleView;

  beforeAll(async () => {
    demoView = await sampleView(t, t.server.demoKey);
  });

  it('the demonstration workspace shows its endpoints, subscriptions and deliveries in every outcome', async () => {
    await expectSampleWebhooks(demoView, t.server.demoKey, 'Demonstration key');
  });

  it('the demonstration subscriptions listen to what their platforms subscribed to', () => {
    const byClient = Object.fromEntries(demoView.hooks.data.map((h: any) => [h.client, h]));
    expect(byClient.zapier).toMatchObject({ event: 'attendee.registered' });
    expect(byClient.make).toMatchObject({ event: 'order.paid', eventId: null });
    expect(byClient.n8n).toMatchObject({ event: 'attendee.cancelled', eventId: null });
  });

  it('filters deliveries by state', async () => {
    for (const [webhookId, deliveries] of Object.entries(demoView.deliveries)) {
      for (const state of ['succeeded', 'failed', 'cancelled', 'pending']) {
        const res = await t.api(`/webhooks/${webhookId}/deliveries?state=${state}`, {
          key: t.server.demoKey,
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual(deliveries.filter((d) => d.state === state));
      }
    }
  });

  it('a workspace made with sample data shows the same', async () => {
    const { workspaceId } = await t.workspace('Sample webhooks workspace', true);
    const { key } = await t.key({ workspaceId, preset: 'assistant', expires: 'never' });
    const view = await sampleView(t, key);
    await expectSampleWebhooks(view, key, 'Sample data');
    expect(shape(view)).toEqual(shape(demoView));
    // Its own rows, not the demonstration's.
    const demoIds = new Set(demoView.webhooks.data.map((w: any) => w.webhookId));
    for (const w of view.webhooks.data) expect(demoIds.has(w.webhookId)).toBe(false);
    const rows = await db()
      .selectFrom('hooks')
      .select('workspace_id')
      .where('id', 'in', ids({ body: view.hooks } as ApiAnswer))
      .execute();
    expect(rows.every((r) => r.workspace_id === workspaceId)).toBe(true);
  });

  it('is deterministic: another deployment made at the same moment shows exactly the same', async () => {
    const otherClock = new MutableClock();
    setClock(otherClock, startedAt);
    const other = await startTestServer({
      clock: otherClock,
      env: { TESSERA_SECRET_KEY: 'another-master-key-0123456789abcdef' },
      dispatcher: false,
    });
    try {
      const view = await sampleView(other, other.server.demoKey);
      expect(view).toEqual(demoView);
    } finally {
      await other.close();
    }
  });

  it('the demonstration key only reads the sample: changing it answers 403 demoWorkspace', async () => {
    const demo = t.server.demoKey;
    const [first] = demoView.webhooks.data;
    expectProblem(
      await t.api(`/webhooks/${first.webhookId}/test`, { key: demo, method: 'POST' }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await t.api(`/webhooks/${first.webhookId}`, { key: demo, method: 'DELETE' }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await t.api(`/hooks/${demoView.hooks.data[0].id}`, { key: demo, method: 'DELETE' }),
      403,
      'demoWorkspace',
    );
    expect(await sampleView(t, demo)).toEqual(demoView);
    const rows = await db()
      .selectFrom('hooks')
      .select('id')
      .where('workspace_id', '=', demoWorkspaceId)
      .execute();
    expect(rows).toHaveLength(3);
  });
});
