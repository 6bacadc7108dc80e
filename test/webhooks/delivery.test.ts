// Deliveries to real HTTPS receivers on loopback (certificates of the run's test CA, trusted by the
// dispatcher through NODE_EXTRA_CA_CERTS): Standard Webhooks signatures checked by the
// `standardwebhooks` package with the secret from creation, both secrets during a rotation, retries
// after failures on the documented schedule, Retry-After, 410 on both channels, unsigned callbacks
// with the data at the top level, personal data redacted per the receiving key's scopes, no
// redirect followed, a time-out per attempt, and one slow receiver not holding up another.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { retryDelaysSeconds } from '../../core/platform/retry-schedule';
import { Dispatcher, purgeDelivered } from '../../core/webhooks/dispatcher';
import { send } from '../../core/webhooks/sender';
import { type Receiver, startReceiver } from '../support/receiver';
import { person, register, sampleIds } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let key: string;
let summit: string;
let standard: string;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  t = await startTestServer({
    clock,
    env: { TESSERA_SECRET_KEY: 'delivery-test-master-key-0123456789abcdef' },
    delivery: { allowPrivate: true, timeoutMs: 1_000 },
  });
  ({ workspaceId } = await t.workspace('Delivery workspace', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  standard = ids.ticketType('summit', 'standard');
});
afterEach(async () => {
  // Each test's endpoints and subscriptions end with it, so later messages do not reach them.
  const db = t.server.services.db;
  await db.updateTable('webhooks').set({ active: 0 }).where('workspace_id', '=', workspaceId).execute();
  await db.updateTable('hooks').set({ active: 0 }).where('workspace_id', '=', workspaceId).execute();
});
afterAll(async () => {
  await t?.close();
  for (const r of receivers) await r.close();
});

async function endpoint(url: string, eventTypes = ['attendee.registered'], k = key) {
  const made = await t.api('/webhooks', { key: k, method: 'POST', body: { url, eventTypes } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { webhook: { webhookId: string }; secret: string };
}

async function registerOne(): Promise<Record<string, unknown>> {
  const attendee = person(standard);
  const res = await register(t, key, summit, [attendee]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return attendee;
}

async function deliveries(webhookId: string) {
  const res = await t.api(`/webhooks/${webhookId}/deliveries`, { key });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

/** Moves the clock past the next attempt and wakes the dispatcher. */
function skip(seconds: number): void {
  clock.advance(seconds * 1000);
  t.server.dispatcher!.tick();
}

const headersOf = (r: { headers: Record<string, unknown> }) =>
  Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

describe('signed deliveries to an endpoint', () => {
  it('signs with the secret from creation, verified by the standardwebhooks package', async () => {
    const r = await receiver();
    const { webhook, secret } = await endpoint(r.url());
    const attendee = await registerOne();
    const [got] = await r.waitFor(1);

    const verified = new Webhook(secret).verify(got!.body, headersOf(got!)) as any;
    expect(verified.type).toBe('attendee.registered');
    expect(got!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // webhook-timestamp is when it was sent (the body's timestamp is when the change happened).
    const sentAt = Number(got!.headers['webhook-timestamp']);
    expect(sentAt).toBeGreaterThanOrEqual(Math.floor(Date.parse(verified.timestamp) / 1000));
    expect(Math.abs(sentAt - got!.at / 1000)).toBeLessThan(5);
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(Object.keys(verified).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(verified.data.event).toMatchObject({ eventId: summit });
    expect(verified.data.attendee).toMatchObject({
      firstName: attendee.firstName,
      email: attendee.email,
    });

    // Another secret does not verify it.
    const other = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    expect(() => other.verify(got!.body, headersOf(got!))).toThrow();

    // The endpoint shows the outcome; the delivery lists one successful attempt.
    await expect
      .poll(async () => (await t.api(`/webhooks/${webhook.webhookId}`, { key })).body.lastStatus)
      .toBe('succeeded');
    const [delivery] = await deliveries(webhook.webhookId);
    expect(delivery).toMatchObject({
      messageId: got!.headers['webhook-id'],
      type: 'attendee.registered',
      state: 'succeeded',
      eventId: summit,
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, outcome: 'succeeded' });
  });

  it('signs with both secrets while one replaces the other, separated by a space', async () => {
    const r = await receiver();
    const { webhook, secret: first } = await endpoint(r.url());
    const rotated = await t.api(`/webhooks/${webhook.webhookId}/secret`, { key, method: 'POST' });
    expect(rotated.status).toBe(200);
    const second = rotated.body.secret as string;
    expect(second).not.toBe(first);

    await registerOne();
    const [got] = await r.waitFor(1);
    expect(got!.headers['webhook-signature']!).toMatch(/^v1,\S+ v1,\S+$/);
    // A receiver holding either secret accepts it.
    for (const secret of [first, second])
      expect(() => new Webhook(secret).verify(got!.body, headersOf(got!))).not.toThrow();

    // After the grace period only the new secret signs.
    const pastGrace = Date.parse(rotated.body.previousSecretExpiresUtc) - clock.now().getTime() + 1000;
    clock.advance(pastGrace);
    try {
      await registerOne();
      const [first, later] = await r.waitFor(2);
      // The second message, not the first sent again because the clock passed its lease.
      expect(later!.headers['webhook-id']).not.toBe(first!.headers['webhook-id']);
      expect(String(later!.headers['webhook-signature']).split(' ')).toHaveLength(1);
      // (standardwebhooks refuses a timestamp far from the real time, so the signature is checked by hand.)
      const [, value] = String(later!.headers['webhook-signature']).split(',');
      const expected = new Webhook(second).sign(
        String(later!.headers['webhook-id']),
        new Date(Number(later!.headers['webhook-timestamp']) * 1000),
        later!.body,
      );
      expect(`v1,${value}`).toBe(expected);
    } finally {
      clock.advance(-pastGrace);
    }
  });

  it('does not send a delivery again while its answer is awaited, though the clock passes its lease', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 200, delayMs: 400 }));
    await endpoint(r.url());
    await registerOne();
    await r.waitFor(1);
    // Set forward past the lease (the time-out and a minute) while the answer is awaited.
    skip(120);
    await new Promise((resolve) => setTimeout(resolve, 700));
    skip(120);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).toHaveLength(1);
  });

  it('tries again after 500s, with the same webhook-id, until a 2xx', async () => {
    const r = await receiver();
    r.reply((_req, i) => ({ status: i < 2 ? 500 : 204 }));
    const { webhook } = await endpoint(r.url());
    await registerOne();
    await r.waitFor(1);
    // The receiver answers before the dispatcher records the attempt.
    await expect.poll(async () => (await deliveries(webhook.webhookId))[0].attempts.length).toBe(1);
    let [delivery] = await deliveries(webhook.webhookId);
    expect(delivery.state).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500, outcome: 'httpError' });
    // The first retry waits about 5 seconds (± a tenth), not less.
    const wait = (Date.parse(delivery.nextAttemptUtc) - Date.parse(delivery.attempts[0].atUtc)) / 1000;
    expect(wait).toBeGreaterThanOrEqual(retryDelaysSeconds[0] * 0.9 - 1);
    expect(wait).toBeLessThanOrEqual(retryDelaysSeconds[0] * 1.1 + 1);
    skip(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).toHaveLength(1);

    skip(retryDelaysSeconds[0] * 1.1);
    await r.waitFor(2);
    await expect.poll(async () => (await deliveries(webhook.webhookId))[0].attempts.length).toBe(2);
    [delivery] = await deliveries(webhook.webhookId);
    // The second retry waits about 5 minutes.
    const second = (Date.parse(delivery.nextAttemptUtc) - Date.parse(delivery.attempts[1].atUtc)) / 1000;
    expect(second).toBeGreaterThanOrEqual(retryDelaysSeconds[1] * 0.9 - 1);
    skip(retryDelaysSeconds[1] * 1.1);
    const got = await r.waitFor(3);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    await expect.poll(async () => (await deliveries(webhook.webhookId))[0].state).toBe('succeeded');
    [delivery] = await deliveries(webhook.webhookId);
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([500, 500, 204]);
    expect(delivery.nextAttemptUtc).toBeNull();
  });

  it('waits as long as Retry-After asks on 429 and 503', async () => {
    for (const status of [429, 503]) {
      const r = await receiver();
      r.reply((_req, i) => (i === 0 ? { status, headers: { 'retry-after': '120' } } : { status: 200 }));
      const { webhook } = await endpoint(r.url());
      await registerOne();
      await r.waitFor(1);
      // The receiver answers before the dispatcher records the attempt.
      await expect.poll(async () => (await deliveries(webhook.webhookId))[0].attempts.length).toBe(1);
      const [delivery] = await deliveries(webhook.webhookId);
      const wait = (Date.parse(delivery.nextAttemptUtc) - Date.parse(delivery.attempts[0].atUtc)) / 1000;
      expect(wait, `after ${status}`).toBeGreaterThanOrEqual(119);
      skip(retryDelaysSeconds[0] * 1.1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(r.received, 'not before Retry-After').toHaveLength(1);
      skip(120);
      await r.waitFor(2);
      await db().updateTable('webhooks').set({ active: 0 }).where('id', '=', webhook.webhookId).execute();
    }
  });

  it('switches an endpoint off as gone when it answers 410, and sends it nothing more', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 410 }));
    const { webhook } = await endpoint(r.url());
    await registerOne();
    await r.waitFor(1);
    await expect
      .poll(async () => (await t.api(`/webhooks/${webhook.webhookId}`, { key })).body)
      .toMatchObject({ active: false, disabledReason: 'gone', lastStatus: 'failed' });
    const [delivery] = await deliveries(webhook.webhookId);
    expect(delivery).toMatchObject({ state: 'failed', nextAttemptUtc: null });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 410, outcome: 'gone' });
    await registerOne();
    skip(retryDelaysSeconds[0] * 1.1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const r = await receiver();
    r.reply(() => ({ status: 307, headers: { location: target.url('/elsewhere') } }));
    const { webhook } = await endpoint(r.url());
    await registerOne();
    await r.waitFor(1);
    await expect
      .poll(async () => (await deliveries(webhook.webhookId))[0]?.attempts[0]?.statusCode)
      .toBe(307);
    expect((await deliveries(webhook.webhookId))[0].attempts[0].outcome).toBe('httpError');
    expect(target.received).toHaveLength(0);
  });

  it('gives an attempt its time-out, and a slow receiver does not hold up another', async () => {
    const slow = await receiver();
    slow.reply(() => ({ status: 200, delayMs: 5_000 }));
    const fast = await receiver();
    const { webhook: slowHook } = await endpoint(slow.url());
    await endpoint(fast.url());
    // Two messages at once (one order of two), so both are due in the same round whatever the
    // machine's speed: the fast receiver has both before the slow one's first attempt (1 s) could
    // have ended, where a dispatcher that waited on the slow receiver would send them a second later.
    const res = await register(t, key, summit, [person(standard), person(standard)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const fastGot = await fast.waitFor(2);
    const [slowFirst] = await slow.waitFor(1);
    expect(Math.max(...fastGot.map((g) => g.at)) - slowFirst!.at).toBeLessThan(1_000);
    await expect
      .poll(async () => (await deliveries(slowHook.webhookId)).map((d) => d.attempts[0]?.outcome))
      .toEqual(['timeout', 'timeout']);
    const [delivery] = await deliveries(slowHook.webhookId);
    expect(delivery.state).toBe('pending');
    expect(delivery.attempts[0].statusCode).toBeNull();
    expect(delivery.attempts[0].durationMs).toBeLessThan(2_000);
  });
});

function db() {
  return t.server.services.db;
}

describe('automation callbacks', () => {
  it('posts the data at the top level, unsigned, with id, type and timestamp', async () => {
    const r = await receiver();
    const made = await t.api('/hooks', {
      key,
      method: 'POST',
      body: {
        url: r.url('/zap?token=s3cret'),
        event: 'attendee.registered',
        eventId: summit,
        client: 'zapier',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const attendee = await registerOne();
    const [got] = await r.waitFor(1);
    expect(got!.path).toBe('/zap?token=s3cret');
    expect(got!.headers['webhook-signature']).toBeUndefined();
    expect(got!.json).toMatchObject({ type: 'attendee.registered', event: { eventId: summit } });
    expect(got!.json.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got!.json.attendee.email).toBe(attendee.email);
    expect(Date.parse(got!.json.timestamp)).not.toBeNaN();
    expect(got!.json.data).toBeUndefined();
  });

  it('listens to one event only when it names one', async () => {
    const r = await receiver();
    const forum = sampleIds(workspaceId).event('forum');
    await t.api('/hooks', {
      key,
      method: 'POST',
      body: { url: r.url(), event: 'attendee.registered', eventId: forum, client: 'make' },
    });
    await registerOne();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(0);
  });

  it('unsubscribes a callback that answers 410', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 410 }));
    const made = await t.api('/hooks', {
      key,
      method: 'POST',
      body: { url: r.url(), event: 'attendee.registered', client: 'n8n' },
    });
    await registerOne();
    await r.waitFor(1);
    await expect.poll(async () => (await t.api(`/hooks/${made.body.id}`, { key })).status).toBe(404);
    await registerOne();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });

  it("redacts personal data by the receiving key's scopes at delivery", async () => {
    // Subscribing needs the scopes of what a type delivers, so a key without people:read cannot
    // make such an endpoint; the dispatcher still redacts by the key, whatever the row says. The
    // endpoint is handed to such a key in the database to show it.
    const { key: noPeople, apiKeyId } = await t.key({
      workspaceId,
      scopes: ['webhooks:write', 'attendees:read'],
      expires: 'never',
    });
    const redacting = await receiver();
    const full = await receiver();
    const { webhook } = await endpoint(redacting.url());
    await db()
      .updateTable('webhooks')
      .set({ api_key_id: apiKeyId })
      .where('id', '=', webhook.webhookId)
      .execute();
    await endpoint(full.url());
    expect(noPeople).toBeTruthy();

    const attendee = await registerOne();
    const [plain] = await full.waitFor(1);
    const [hidden] = await redacting.waitFor(1);
    expect(plain!.json.data.attendee).toMatchObject({ email: attendee.email, firstName: attendee.firstName });
    expect(hidden!.json.data.attendee).toMatchObject({ email: null, firstName: null, lastName: null });
    expect(hidden!.body).not.toContain(String(attendee.email));
    expect(hidden!.json.data.attendee.attendeeId).toBe(plain!.json.data.attendee.attendeeId);
  });
});

describe('the address actually connected to', () => {
  it('refuses at delivery a name that resolves to a private address (DNS rebinding)', async () => {
    const r = await receiver();
    // The creation check passed (or was never made); at delivery the name resolves to 127.0.0.1.
    const result = await send(
      `https://localhost:${r.port}/in`,
      '{}',
      {},
      { timeoutMs: 1_000, allowPrivate: false },
    );
    expect(result.outcome).toBe('privateAddress');
    expect(result.error).toMatch(/127\.0\.0\.1|::1/);
    const literal = await send(
      `https://[::ffff:127.0.0.1]:${r.port}/in`,
      '{}',
      {},
      {
        timeoutMs: 1_000,
        allowPrivate: false,
      },
    );
    expect(literal.outcome).toBe('privateAddress');
    expect(r.received).toHaveLength(0);
    // Allowed for tests and local development, the same receiver is reached.
    const allowed = await send(
      `https://localhost:${r.port}/in`,
      '{}',
      {},
      { timeoutMs: 1_000, allowPrivate: true },
    );
    expect(allowed).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
  });
});

describe('overlapping runs', () => {
  it('never send one attempt twice: ticks while at work, and a second dispatcher on the same data', async () => {
    const r = await receiver();
    r.reply(() => ({ status: 200, delayMs: 150 }));
    const { webhook } = await endpoint(r.url());
    // The file's 1-s attempt time-out is for the test of time-outs: here a loaded machine's late
    // answer to a 150-ms reply must not end an attempt and make a second one.
    const { delivery } = t.server.services;
    const attemptTimeout = delivery.timeoutMs;
    delivery.timeoutMs = 60_000;
    // Another dispatcher on the same database, as another process's would be: started, it lets go
    // only of claims of dispatchers that ended, never of the first one's.
    const second = new Dispatcher(t.server.services);
    await second.start();
    for (let i = 0; i < 3; i++) {
      const made = await register(
        t,
        key,
        summit,
        Array.from({ length: 10 }, () => person(standard)),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const ticking = setInterval(() => {
      t.server.dispatcher!.tick();
      second.tick();
    }, 5);
    try {
      await r.waitFor(30);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      clearInterval(ticking);
      await second.stop();
      delivery.timeoutMs = attemptTimeout;
      // New messages wake the first dispatcher again (the second took the signal while it ran).
      t.server.services.outboxSignal.listen(() => t.server.dispatcher!.nudge());
    }
    expect(r.received).toHaveLength(30);
    expect(new Set(r.received.map((g) => g.headers['webhook-id'])).size).toBe(30);
    const listed = await deliveries(webhook.webhookId);
    expect(listed).toHaveLength(30);
    for (const d of listed) expect(d.attempts).toHaveLength(1);
  });
});

describe('purging what was delivered', () => {
  // Last in this file: it stops the dispatcher and moves the clock a month on.
  it('removes finished deliveries and their messages after 30 days, and keeps what is still pending', async () => {
    await t.server.dispatcher!.stop();
    const pendingBefore = await db()
      .selectFrom('deliveries')
      .select(['id', 'outbox_id'])
      .where('state', '=', 'pending')
      .execute();
    const finished = await db()
      .selectFrom('deliveries')
      .innerJoin('outbox', 'outbox.id', 'deliveries.outbox_id')
      .select(['deliveries.id', 'deliveries.updated_utc', 'outbox.dispatched_utc'])
      .where('deliveries.state', '!=', 'pending')
      .execute();
    // This file's deliveries, of messages sent within the last day. The sample data's messages are
    // older, though some of their deliveries may have finished within the day (their message goes,
    // and they with it, once the message is past 30 days).
    const dayAgo = new Date(clock.now().getTime() - 86_400_000).toISOString();
    const recent = finished
      .filter((d) => d.updated_utc >= dayAgo && d.dispatched_utc !== null && d.dispatched_utc >= dayAgo)
      .map((d) => d.id);
    expect(recent.length).toBeGreaterThan(0);

    // Within 30 days they stay.
    clock.advance(29 * 86_400_000);
    await purgeDelivered(t.server.services);
    const stayed = await db().selectFrom('deliveries').select('id').where('id', 'in', recent).execute();
    expect(stayed).toHaveLength(recent.length);

    clock.advance(2 * 86_400_000);
    const purged = await purgeDelivered(t.server.services);
    expect(purged.deliveries).toBeGreaterThanOrEqual(recent.length);
    expect(purged.messages).toBeGreaterThan(0);
    const left = await db().selectFrom('deliveries').select(['id', 'state']).execute();
    expect(left.every((d) => d.state === 'pending')).toBe(true);
    expect(left.map((d) => d.id).sort()).toEqual(pendingBefore.map((d) => d.id).sort());
    // A message still waiting for one of its deliveries stays.
    const waiting = pendingBefore.flatMap((d) => (d.outbox_id === null ? [] : [d.outbox_id]));
    if (waiting.length > 0) {
      const kept = await db().selectFrom('outbox').select('id').where('id', 'in', waiting).execute();
      expect(kept).toHaveLength(new Set(waiting).size);
    }
  });
});
