// Rate counter (spec "Limits"): one counter per key shared by REST and MCP, RateLimit and
// RateLimit-Policy headers on every answer, 429 rateLimited with Retry-After, /me reporting the
// limit, and refused calls recorded in key activity with their code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyActivity } from '../../core/admin/api-keys';
import { expectProblem, sleep } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer({ rateLimit: 5, clock });
  ({ workspaceId } = await t.workspace('Rate workspace'));
});
afterAll(async () => t.close());

const newKey = (ratePerMinute?: number) =>
  t.key({ workspaceId, preset: 'dashboard', expires: 'never', ratePerMinute });

function rateHeaders(headers: Headers): { q: number; w: number; r: number; t: number } {
  const policy = headers.get('ratelimit-policy') ?? '';
  const limit = headers.get('ratelimit') ?? '';
  const p = /^"default";q=(\d+);w=(\d+)$/.exec(policy);
  const l = /^"default";r=(\d+);t=(\d+)$/.exec(limit);
  expect(p, `RateLimit-Policy: ${policy}`).not.toBeNull();
  expect(l, `RateLimit: ${limit}`).not.toBeNull();
  return { q: Number(p![1]), w: Number(p![2]), r: Number(l![1]), t: Number(l![2]) };
}

async function activityOf(apiKeyId: string) {
  await t.server.services.activity.flush();
  return keyActivity(t.server.services.db, apiKeyId, 1000);
}

/** The SDK client opens its optional event stream (GET /mcp) in the background after connecting. */
async function mcpSettled(apiKeyId: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await activityOf(apiKeyId)).some((a) => a.operation === 'MCP GET')) return;
    await sleep(25);
  }
}

describe('headers', () => {
  it('sends RateLimit-Policy "default";q=5;w=60 and RateLimit "default";r=N;t=T on answers', async () => {
    const { key } = await newKey();
    const first = rateHeaders((await t.api('/me', { key })).headers);
    expect(first).toMatchObject({ q: 5, w: 60, r: 4 });
    expect(first.t).toBeGreaterThanOrEqual(1);
    expect(first.t).toBeLessThanOrEqual(60);
    const second = rateHeaders((await t.api('/events', { key })).headers);
    expect(second.r).toBe(3);
    expect(second.t).toBeLessThanOrEqual(first.t);
  });

  it('sends the headers on refusals of a working key too', async () => {
    const { key } = await newKey();
    const res = await t.api('/events/00000000-0000-4000-8000-000000000000', { key });
    expectProblem(res, 404, 'eventNotFound');
    expect(rateHeaders(res.headers)).toMatchObject({ q: 5, r: 4 });
  });

  it('reports the limit in /me and /workspace: perMinute 5, windowSeconds 60', async () => {
    const { key } = await newKey();
    expect((await t.api('/me', { key })).body.rateLimit).toEqual({ perMinute: 5, windowSeconds: 60 });
    expect((await t.api('/workspace', { key })).body.rateLimit).toEqual({ perMinute: 5, windowSeconds: 60 });
  });

  it("reports a key's own limit when it has one", async () => {
    const { key } = await newKey(42);
    const res = await t.api('/me', { key });
    expect(res.body.rateLimit.perMinute).toBe(42);
    expect(rateHeaders(res.headers)).toMatchObject({ q: 42, r: 41 });
  });
});

describe('429 rateLimited', () => {
  it('refuses the 6th call in a minute with 429 rateLimited and Retry-After', async () => {
    const { key } = await newKey();
    for (let i = 0; i < 5; i++) expect((await t.api('/me', { key })).status).toBe(200);
    const res = await t.api('/me', { key });
    expectProblem(res, 429, 'rateLimited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const headers = rateHeaders(res.headers);
    expect(headers.r).toBe(0);
    expect(headers.t).toBe(retryAfter);
  });

  it('counts each key on its own', async () => {
    const busy = await newKey();
    const idle = await newKey();
    for (let i = 0; i < 6; i++) await t.api('/me', { key: busy.key });
    expectProblem(await t.api('/me', { key: busy.key }), 429, 'rateLimited');
    expect((await t.api('/me', { key: idle.key })).status).toBe(200);
  });

  it('answers again once the window has passed', async () => {
    const { key } = await newKey();
    for (let i = 0; i < 6; i++) await t.api('/me', { key });
    const refused = await t.api('/me', { key });
    expect(refused.status).toBe(429);
    clock.advance((Number(refused.headers.get('retry-after')) + 1) * 1000);
    const res = await t.api('/me', { key });
    expect(res.status).toBe(200);
    expect(rateHeaders(res.headers).r).toBe(4);
  });

  it('records refused calls in key activity with their code', async () => {
    const made = await newKey();
    for (let i = 0; i < 7; i++) await t.api('/events', { key: made.key });
    const activity = await activityOf(made.apiKeyId);
    expect(activity).toHaveLength(7);
    expect(activity.filter((a) => a.outcome === 'ok')).toHaveLength(5);
    const refused = activity.filter((a) => a.outcome === 'rateLimited');
    expect(refused).toHaveLength(2);
    for (const a of refused) {
      expect(a.status).toBe(429);
      expect(a.operation).toBe('GET /api/v1/events');
    }
  });
});

describe('one counter for REST and MCP', () => {
  it('counts REST and MCP calls of a key together', async () => {
    const made = await newKey(30);
    expect(rateHeaders((await t.api('/me', { key: made.key })).headers).r).toBe(29);
    const client = await t.mcp(made.key);
    await mcpSettled(made.apiKeyId);
    const me = await client.callTool({ name: 'get_me', arguments: {} });
    expect(me.isError).toBeFalsy();
    await client.callTool({ name: 'list_events', arguments: {} });
    const after = rateHeaders((await t.api('/me', { key: made.key })).headers);
    // MCP calls are recorded once their answer is written; the REST round trip above lets the last land.
    const mcpCalls = (await activityOf(made.apiKeyId)).filter((a) => a.transport === 'mcp').length;
    expect(mcpCalls).toBeGreaterThanOrEqual(3); // initialize, get_me, list_events at least
    expect(after.r).toBe(30 - 1 - mcpCalls - 1);
    await client.close();
  });

  it('refuses MCP with 429 once REST calls used the minute up', async () => {
    const { key } = await newKey();
    for (let i = 0; i < 5; i++) expect((await t.api('/me', { key })).status).toBe(200);
    await expect(t.mcp(key)).rejects.toThrow();
    const raw = await t.postMcp(key);
    expect(raw.status).toBe(429);
    expect(raw.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await raw.json()) as { code: string }).code).toBe('rateLimited');
  });

  it('refuses REST with 429 once MCP calls used the minute up', async () => {
    const made = await newKey();
    const client = await t.mcp(made.key);
    await mcpSettled(made.apiKeyId);
    let refusedOnMcp = false;
    for (let i = 0; i < 5 && !refusedOnMcp; i++) {
      await client.callTool({ name: 'get_me', arguments: {} }).catch(() => {
        refusedOnMcp = true;
      });
    }
    expect(refusedOnMcp).toBe(true);
    expectProblem(await t.api('/me', { key: made.key }), 429, 'rateLimited');
    const mcpRefusals = (await activityOf(made.apiKeyId)).filter(
      (a) => a.transport === 'mcp' && a.outcome === 'rateLimited',
    );
    expect(mcpRefusals.length).toBeGreaterThanOrEqual(1);
    await client.close();
  });
});
