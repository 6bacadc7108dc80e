// Health and metrics over HTTPS with the real server: /healthz and /readyz without a key and
// without data; /readyz failing for a stopped or stale dispatcher, a pending migration and a closed
// database; /metrics only for the operator's token or allowed addresses; and the counts moving
// for requests, rate-limit refusals, deliveries, e-mails and database time, read with a parser of
// the Prometheus text format.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleAfterMs } from '../../src/metrics/readiness';
import { SettingsError, settingsFrom } from '../../src/settings';
import { eventToRegisterFor, serverWithMail, settled } from '../mail/mail-support';
import { expectProblem } from '../support/fixtures';
import { parsePrometheusText, type Scrape } from '../support/prometheus-text';
import { type Receiver, startReceiver } from '../support/receiver';
import { person, register } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';

const token = 'metrics-token-for-the-tests-0123';
const secretKey = 'metrics-test-master-key-0123456789abcdef';

/** Everything a request sent to /metrics; the caller checks the status. */
async function getMetrics(t: TestServer, headers: Record<string, string> = {}) {
  return t.fetch(`${t.server.origin}/metrics`, { headers });
}

async function scrape(t: TestServer): Promise<Scrape> {
  const res = await getMetrics(t, { authorization: `Bearer ${token}` });
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

async function readyz(t: TestServer) {
  const res = await t.api('//readyz');
  return { status: res.status, body: res.body, cache: res.headers.get('cache-control') };
}

describe('the main server (token, e-mail, deliveries)', () => {
  let t: TestServer;
  let smtp: SmtpTestServer;
  let receiver: Receiver;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    ({ t, smtp } = await serverWithMail({
      env: { TESSERA_METRICS_TOKEN: token, TESSERA_SECRET_KEY: secretKey },
      delivery: { allowPrivate: true, timeoutMs: 2_000 },
    }));
    receiver = await startReceiver();
    ({ workspaceId } = await t.workspace('Metrics workspace'));
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await receiver?.close();
  });

  it('answers /healthz without a key: {"status":"ok"}, never cached, HEAD too', async () => {
    const res = await t.api('//healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const head = await t.fetch(`${t.server.origin}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers /readyz without a key with the checks by name only', async () => {
    expect(await readyz(t)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', dispatcher: 'ok' } },
      cache: 'no-store',
    });
  });

  it('refuses /metrics without the token or with a wrong one: 401 and WWW-Authenticate: Bearer', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-of-the-same-length-0' },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const res = await getMetrics(t, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.code).toBe('metricsTokenInvalid');
    }
  });

  it('serves the Prometheus text to the token, with the process metrics and no workspace data', async () => {
    const res = await getMetrics(t, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const metrics = parsePrometheusText(text);
    expect(metrics.types.get('tessera_requests_total')).toBe('counter');
    expect(metrics.types.get('tessera_request_duration_seconds')).toBe('histogram');
    expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.types.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    expect(text).not.toContain(workspaceId);
    expect(text).not.toContain(key);
  });

  it('counts requests by operation and status, REST and MCP, with their latency', async () => {
    const op = 'GET /api/v1/me';
    const before = await scrape(t);
    for (let i = 0; i < 3; i += 1) expect((await t.api('/me', { key })).status).toBe(200);
    expect((await t.api('/me')).status).toBe(401);
    const mcp = await t.mcp(key);
    await mcp.callTool({ name: 'get_me', arguments: {} });
    await mcp.callTool({ name: `made_up_${workspaceId}`, arguments: {} }).catch(() => undefined);
    await mcp.close();
    const after = await scrape(t);
    const moved = (name: string, labels: Record<string, string>) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    expect(moved('tessera_requests_total', { operation: op, status: '200' })).toBe(3);
    expect(moved('tessera_requests_total', { operation: op, status: '401' })).toBe(1);
    expect(moved('tessera_request_duration_seconds_count', { operation: op })).toBe(4);
    expect(moved('tessera_request_duration_seconds_sum', { operation: op })).toBeGreaterThan(0);
    expect(moved('tessera_request_duration_seconds_bucket', { operation: op, le: '+Inf' })).toBe(4);
    expect(moved('tessera_requests_total', { operation: 'MCP tools/call get_me', status: '200' })).toBe(1);
    // A tool name the client made up is no label of its own.
    expect(moved('tessera_requests_total', { operation: 'MCP other', status: '200' })).toBe(1);
    expect(after.all('tessera_requests_total').some((s) => s.labels.operation!.includes('made_up'))).toBe(
      false,
    );
    // The scrape itself, by its route.
    expect(
      after.value('tessera_requests_total', { operation: 'GET /metrics', status: '200' }),
    ).toBeGreaterThan(0);
  });

  it('counts a call refused by the key rate limit', async () => {
    const limited = await t.key({ workspaceId, preset: 'everything', expires: 'never', ratePerMinute: 1 });
    const before = (await scrape(t)).value('tessera_rate_limited_total', { limiter: 'key' });
    expect(before).toBe(0);
    expect((await t.api('/me', { key: limited.key })).status).toBe(200);
    expectProblem(await t.api('/me', { key: limited.key }), 429, 'rateLimited');
    expect((await scrape(t)).value('tessera_rate_limited_total', { limiter: 'key' })).toBe(1);
  });

  it('counts the database statements and their time', async () => {
    const before = (await scrape(t)).value('tessera_database_query_duration_seconds_count')!;
    expect((await t.api('/me', { key })).status).toBe(200);
    const after = await scrape(t);
    expect(after.value('tessera_database_query_duration_seconds_count')).toBeGreaterThan(before);
    expect(after.value('tessera_database_query_duration_seconds_sum')).toBeGreaterThan(0);
  });

  it('counts a webhook delivery that succeeded, and the queue reads empty after it', async () => {
    const made = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url('/metrics-hook'), eventTypes: ['attendee.registered'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const before = (await scrape(t)).value('tessera_webhook_deliveries_total', { outcome: 'succeeded' });
    expect(before).toBe(0);
    const sent = await t.api(`/webhooks/${made.body.webhook.webhookId}/test`, { key, method: 'POST' });
    expect(sent.status).toBe(202);
    await receiver.waitFor(1, { path: '/metrics-hook' });
    await expect
      .poll(async () => (await scrape(t)).value('tessera_webhook_deliveries_total', { outcome: 'succeeded' }))
      .toBe(1);
    const after = await scrape(t);
    expect(after.value('tessera_webhook_deliveries_total', { outcome: 'httpError' })).toBe(0);
    expect(after.value('tessera_delivery_queue_depth', { stage: 'due' })).toBe(0);
    expect(after.value('tessera_delivery_queue_oldest_age_seconds')).toBe(0);
  });

  it('counts an e-mail sent', async () => {
    expect((await scrape(t)).value('tessera_emails_total', { outcome: 'sent' })).toBe(0);
    const event = await eventToRegisterFor(t);
    const res = await register(t, event.key, event.eventId, [person(event.ticketTypeId)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await settled(t, event.eventId);
    await smtp.waitFor(1);
    const after = await scrape(t);
    expect(after.value('tessera_emails_total', { outcome: 'sent' })).toBe(1);
    expect(after.value('tessera_emails_total', { outcome: 'failed' })).toBe(0);
  });

  it('reads the writes run again from the write queue at each scrape', async () => {
    // A deadlock needs two transactions in crossing orders (test/races plays them); the count is
    // the write queue's own, which the scrape reads.
    const before = (await scrape(t)).value('tessera_writes_ran_again_total');
    expect(before).toBe(t.server.services.writes.ranAgain);
    t.server.services.writes.ranAgain += 2;
    expect((await scrape(t)).value('tessera_writes_ran_again_total')).toBe((before ?? 0) + 2);
  });
});

describe('a server without the metrics settings and without a dispatcher', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dispatcher: false });
  });
  afterAll(async () => {
    // Its database was closed by the last test.
    await t?.close().catch(() => undefined);
  });

  it('answers /metrics 404 as if absent, even to a token', async () => {
    expectProblem(await t.api('//metrics'), 404, 'notFound');
    expectProblem(await t.api('//metrics', { key: token }), 404, 'notFound');
  });

  it('is unready while a migration of this version is pending, and ready again once it is not', async () => {
    const db = t.server.services.db;
    const last = await db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never, 'timestamp' as never])
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    await sql`delete from kysely_migration where name = ${(last as { name: string }).name}`.execute(db);
    expect(await readyz(t)).toMatchObject({
      status: 503,
      body: { status: 'unready', checks: { database: 'ok', migrations: 'pending' } },
    });
    await db
      .insertInto('kysely_migration' as never)
      .values(last as never)
      .execute();
    expect((await readyz(t)).status).toBe(200);
  });

  it('counts a server without a dispatcher ready, saying so', async () => {
    expect(await readyz(t)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { dispatcher: 'off' } },
    });
  });

  it('is unready once the database no longer answers; /healthz still answers', async () => {
    await t.server.services.db.destroy();
    expect(await readyz(t)).toMatchObject({
      status: 503,
      body: { status: 'unready', checks: { database: 'failed', migrations: 'unknown' } },
    });
    expect((await t.api('//healthz')).status).toBe(200);
  });
});

describe('a server behind a proxy with an address allow-list, its dispatcher driven by the test', () => {
  const clock = new MutableClock();
  let t: TestServer;
  let key: string;
  const viaProxy = (from: string, extra: Record<string, string> = {}) =>
    t.fetch(`${t.server.origin.replace('https:', 'http:')}/metrics`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': from, ...extra },
    });

  beforeAll(async () => {
    t = await startTestServer({
      clock,
      trustProxy: true,
      scheduledJobs: false,
      env: {
        TESSERA_METRICS_TOKEN: token,
        TESSERA_METRICS_ALLOW: '10.0.0.0/8',
        TESSERA_SECRET_KEY: secretKey,
      },
      delivery: { allowPrivate: true },
    });
    const { workspaceId } = await t.workspace('Queue workspace');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  });
  afterAll(async () => t?.close());

  it('serves /metrics to an allowed forwarded address without the token, and refuses another', async () => {
    expect((await viaProxy('10.1.2.3')).status).toBe(200);
    const refused = await viaProxy('192.0.2.7');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await viaProxy('192.0.2.7', { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('is unready when the dispatcher has not ticked lately, then when it is stopped', async () => {
    const http = t.server.origin.replace('https:', 'http:');
    // Plain HTTP from the proxy's network: a load balancer's probe needs no forwarded headers.
    const probe = async () => {
      const res = await t.fetch(`${http}/readyz`);
      return { status: res.status, body: await res.json() };
    };
    t.server.dispatcher!.tick();
    expect(await probe()).toMatchObject({ status: 200, body: { checks: { dispatcher: 'ok' } } });
    clock.advance(staleAfterMs + 1_000);
    expect(await probe()).toEqual({
      status: 503,
      body: { status: 'unready', checks: { database: 'ok', migrations: 'ok', dispatcher: 'stale' } },
    });
    t.server.dispatcher!.tick();
    expect((await probe()).status).toBe(200);
    await t.server.dispatcher!.stop();
    expect(await probe()).toMatchObject({ status: 503, body: { checks: { dispatcher: 'stopped' } } });
  });

  it('reads the queue at scrape time: a delivery waiting while the dispatcher is stopped, and its age', async () => {
    const read = async () => parsePrometheusText(await (await viaProxy('10.0.0.1')).text());
    expect((await read()).value('tessera_delivery_queue_depth', { stage: 'due' })).toBe(0);
    const made = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: 'https://127.0.0.1:9/hook', eventTypes: ['attendee.registered'] },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sent = await t.api(`/webhooks/${made.body.webhook.webhookId}/test`, {
      key,
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(sent.status).toBe(202);
    // Its first attempt was made at once (a closed port) and failed: its retry waits, due a few seconds on.
    expect(sent.body.attempt).toMatchObject({ reason: 'connectionRefused' });
    const { next_attempt_utc } = await t.server.services.db
      .selectFrom('deliveries')
      .select('next_attempt_utc')
      .where('id', '=', sent.body.deliveryId)
      .executeTakeFirstOrThrow();
    clock.advance(90_000);
    const overdue = (clock.now().getTime() - Date.parse(next_attempt_utc!)) / 1000;
    const metrics = await read();
    expect(metrics.value('tessera_delivery_queue_depth', { stage: 'due' })).toBe(1);
    expect(metrics.value('tessera_delivery_queue_depth', { stage: 'outbox' })).toBe(0);
    expect(metrics.value('tessera_delivery_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(
      Math.floor(overdue),
    );
    expect(metrics.value('tessera_delivery_queue_oldest_age_seconds')).toBeLessThan(overdue + 30);
  });
});

describe('a server allowing loopback only', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { TESSERA_METRICS_ALLOW: '127.0.0.1/32,::1', TESSERA_AUTH_FAILURE_LIMIT: '1' },
    });
  });
  afterAll(async () => t?.close());

  const read = async () => {
    const res = await getMetrics(t);
    expect(res.status).toBe(200);
    return parsePrometheusText(await res.text());
  };

  it('serves /metrics to a client on loopback without a token', async () => {
    expect((await read()).types.get('tessera_requests_total')).toBe('counter');
  });

  it('counts the refusals of the failed-authentication limit by their limiter', async () => {
    expectProblem(await t.api('/me', { key: 'not-a-key' }), 401, 'invalidKey');
    expectProblem(await t.api('/me', { key: 'not-a-key' }), 429, 'rateLimited');
    const metrics = await read();
    expect(metrics.value('tessera_rate_limited_total', { limiter: 'authFailure' })).toBe(1);
    expect(metrics.value('tessera_rate_limited_total', { limiter: 'key' })).toBe(0);
  });
});

describe('the metrics settings', () => {
  const settings = (env: Record<string, string>) => () => settingsFrom({}, env);

  it('refuses a token under 16 characters at start', () => {
    expect(settings({ TESSERA_METRICS_TOKEN: 'short-token' })).toThrow(SettingsError);
    expect(settings({ TESSERA_METRICS_TOKEN: 'short-token' })).toThrow(
      /TESSERA_METRICS_TOKEN.*16 characters/,
    );
  });

  it('refuses an allow-list entry that is no address or network, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'localhost', '10.0.0/8', '::1/129', '10.0.0.0/8/1'])
      expect(settings({ TESSERA_METRICS_ALLOW: `127.0.0.1/32, ${bad}` })).toThrow(
        `TESSERA_METRICS_ALLOW: "${bad}" is not an IP address or network`,
      );
  });

  it('takes addresses and networks of both families; /metrics is off without either setting', () => {
    expect(settingsFrom({}, { TESSERA_METRICS_ALLOW: '127.0.0.1, 10.0.0.0/8,fd00::/8' }).metrics).toEqual({
      token: null,
      allow: ['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8'],
    });
    expect(settingsFrom({}, {}).metrics).toBeNull();
  });
});
