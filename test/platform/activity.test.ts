// Activity (spec "Authentication", key activity): every call per key, refused ones too, with route
// or tool, outcome, duration and source, never the query, body or answer; kept 90 days; changes
// in the workspace activity log under the key's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyActivity, revokeKey } from '../../core/admin/api-keys';
import { ActivityRecorder, purgeKeyActivity } from '../../core/platform/storage/activity';
import { WriteBatcher } from '../../core/platform/storage/write-batch';
import { eventBody, sleep } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Activity workspace', true));
});
afterAll(async () => t.close());

const newKey = (name: string, scopes = ['events:write']) =>
  t.key({ workspaceId, name, scopes, expires: 'never' });

async function activityOf(apiKeyId: string) {
  await t.server.services.activity.flush();
  return (await keyActivity(t.server.services.db, apiKeyId, 1000)).reverse();
}

describe('key activity', () => {
  it('records every REST call with its route template, outcome, status, duration, source and time', async () => {
    const made = await newKey('rest recorder');
    const list = await t.api('/events?limit=1', { key: made.key });
    const eventId = list.body.data[0].eventId;
    await t.api(`/events/${eventId}`, { key: made.key });
    await t.api('/me', { key: made.key });
    const activity = await activityOf(made.apiKeyId);
    expect(activity.map((a) => a.operation)).toEqual([
      'GET /api/v1/events',
      'GET /api/v1/events/{eventId}',
      'GET /api/v1/me',
    ]);
    for (const a of activity) {
      expect(a).toMatchObject({ transport: 'rest', outcome: 'ok', status: 200 });
      expect(a.durationMs).toBeGreaterThanOrEqual(0);
      expect(a.durationMs).toBeLessThan(10_000);
      expect(a.source).toMatch(/127\.0\.0\.1/);
      expect(Math.abs(Date.parse(a.atUtc) - clock.now().getTime())).toBeLessThan(60_000);
    }
  });

  it('records refused calls with their code', async () => {
    const made = await newKey('refusals', ['tickets:read']);
    await t.api('/events', { key: made.key });
    await t.api('/events/00000000-0000-4000-8000-000000000000', { key: made.key });
    const writer = await newKey('refusals writer');
    await t.api('/events', { key: writer.key, method: 'POST', body: { name: 1 } });
    await t.api('/events/00000000-0000-4000-8000-000000000000', { key: writer.key });
    expect((await activityOf(made.apiKeyId)).map((a) => [a.outcome, a.status])).toEqual([
      ['missingScope', 403],
      ['missingScope', 403],
    ]);
    expect((await activityOf(writer.apiKeyId)).map((a) => [a.operation, a.outcome, a.status])).toEqual([
      ['POST /api/v1/events', 'invalidBody', 400],
      ['GET /api/v1/events/{eventId}', 'eventNotFound', 404],
    ]);
  });

  it('records calls of a revoked key as keyRevoked', async () => {
    const made = await newKey('revoked recorder');
    await t.api('/me', { key: made.key });
    await revokeKey(t.server.services.db, t.server.services.clock, made.apiKeyId);
    await t.api('/me', { key: made.key });
    expect((await activityOf(made.apiKeyId)).map((a) => [a.outcome, a.status])).toEqual([
      ['ok', 200],
      ['keyRevoked', 401],
    ]);
  });

  it('never records the query string, the body or the answer', async () => {
    const made = await newKey('privacy');
    const secretName = `Secret gala ${Date.now()}`;
    await t.api('/events?status=published&limit=2&updatedSince=2000-01-01T00:00:00Z', { key: made.key });
    const created = await t.api('/events', {
      key: made.key,
      method: 'POST',
      body: eventBody({ name: secretName }),
    });
    await t.api(`/events/${created.body.eventId}?unused=trace-me`, { key: made.key });
    await t.server.services.activity.flush();
    const rows = await t.server.services.db
      .selectFrom('key_activity')
      .selectAll()
      .where('api_key_id', '=', made.apiKeyId)
      .execute();
    expect(rows).toHaveLength(3);
    const stored = JSON.stringify(rows);
    for (const leak of [
      '?',
      'status=',
      'published',
      'limit',
      '2000-01-01',
      'trace-me',
      secretName,
      created.body.eventId,
    ]) {
      expect(stored).not.toContain(leak);
    }
  });

  it('records MCP calls by tool name, refused ones with their code', async () => {
    const made = await newKey('mcp recorder', ['tickets:read']);
    const client = await t.mcp(made.key);
    await client.callTool({ name: 'get_me', arguments: {} });
    await client.callTool({ name: 'list_events', arguments: {} });
    await client.close();
    // An MCP call is recorded just after its answer is written: wait for the last one to land.
    let activity = await activityOf(made.apiKeyId);
    for (let i = 0; i < 40 && !activity.some((a) => a.operation === 'MCP tools/call list_events'); i++) {
      await sleep(25);
      activity = await activityOf(made.apiKeyId);
    }
    for (const a of activity) expect(a.transport).toBe('mcp');
    const operations = activity.map((a) => a.operation);
    expect(operations).toContain('MCP initialize');
    const getMe = activity.find((a) => a.operation === 'MCP tools/call get_me');
    const list = activity.find((a) => a.operation === 'MCP tools/call list_events');
    expect(getMe?.outcome).toBe('ok');
    expect(list?.outcome).toBe('missingScope');
  });

  it('keeps key activity 90 days: the purge removes only what is older', async () => {
    const made = await newKey('retention');
    await t.api('/me', { key: made.key });
    const day = 86_400_000;
    try {
      clock.advance(89 * day);
      await t.api('/me', { key: made.key });
      await t.server.services.activity.flush();
      await purgeKeyActivity(t.server.services.db, t.server.services.clock);
      expect(await activityOf(made.apiKeyId)).toHaveLength(2);
      clock.advance(2 * day);
      const removed = await purgeKeyActivity(t.server.services.db, t.server.services.clock);
      expect(removed).toBeGreaterThanOrEqual(1);
      const left = await activityOf(made.apiKeyId);
      expect(left).toHaveLength(1);
      expect(Date.parse(left[0]!.atUtc)).toBeGreaterThan(clock.now().getTime() - 90 * day);
    } finally {
      clock.advance(-91 * day);
    }
  });

  it('notes when a key was last used', async () => {
    const made = await newKey('last use');
    await t.api('/me', { key: made.key });
    await t.server.services.activity.flush();
    const row = await t.server.services.db
      .selectFrom('api_keys')
      .select('last_used_utc')
      .where('id', '=', made.apiKeyId)
      .executeTakeFirstOrThrow();
    expect(row.last_used_utc).not.toBeNull();
  });

  it('never moves a key’s last use back, whichever process writes its calls last', async () => {
    const made = await newKey('last use, two writers');
    const lastUse = async () =>
      (
        await t.server.services.db
          .selectFrom('api_keys')
          .select('last_used_utc')
          .where('id', '=', made.apiKeyId)
          .executeTakeFirstOrThrow()
      ).last_used_utc;
    const call = (atUtc: string) => ({
      workspaceId,
      apiKeyId: made.apiKeyId,
      atUtc,
      transport: 'rest' as const,
      operation: 'GET /api/v1/me',
      outcome: 'ok',
      status: 200,
      durationMs: 1,
      source: null,
    });
    // Another process's recorder writes a later call first; this one's earlier call comes after.
    const other = new ActivityRecorder(new WriteBatcher(t.server.services.db), t.server.services.log);
    other.record(call('2026-11-24T10:00:05.000Z'));
    await other.flush();
    t.server.services.activity.record(call('2026-11-24T10:00:01.000Z'));
    await t.server.services.activity.flush();
    expect(await lastUse()).toBe('2026-11-24T10:00:05.000Z');
  });
});

describe('workspace activity log', () => {
  it("records a change under the key's name: createEvent then updateEvent", async () => {
    const made = await newKey('Zapier connector');
    const created = await t.api('/events', { key: made.key, method: 'POST', body: eventBody() });
    expect(created.status).toBe(201);
    const eventId = created.body.eventId;
    await t.api(`/events/${eventId}`, { key: made.key, method: 'PATCH', body: { name: 'Renamed' } });
    const log = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('resource_id', '=', eventId)
      .orderBy('id')
      .execute();
    expect(log.map((r) => [r.action, r.actor_name, r.api_key_id, r.resource_type, r.workspace_id])).toEqual([
      ['createEvent', 'Zapier connector', made.apiKeyId, 'event', workspaceId],
      ['updateEvent', 'Zapier connector', made.apiKeyId, 'event', workspaceId],
    ]);
  });

  it('records nothing for reads or refused writes', async () => {
    const made = await newKey('quiet key');
    await t.api('/events', { key: made.key });
    await t.api('/events', { key: made.key, method: 'POST', body: { name: 'no zone' } });
    const log = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('api_key_id', '=', made.apiKeyId)
      .execute();
    expect(log).toEqual([]);
  });

  it('records changes made over MCP the same way', async () => {
    const made = await newKey('Claude assistant');
    const client = await t.mcp(made.key);
    const created = await client.callTool({ name: 'create_event', arguments: eventBody() });
    await client.close();
    const eventId = (created.structuredContent as { eventId: string }).eventId;
    const log = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('resource_id', '=', eventId)
      .execute();
    expect(log.map((r) => [r.action, r.actor_name])).toEqual([['createEvent', 'Claude assistant']]);
  });
});
