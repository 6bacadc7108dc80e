// The demonstration workspace (general rule 3) and workspace isolation (Authentication 6):
// the published key reads, every write answers 403 demoWorkspace; another workspace's ids answer 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let demo: string;

beforeAll(async () => {
  t = await startTestServer();
  demo = t.server.demoKey;
});
afterAll(async () => t.close());

describe('demonstration workspace', () => {
  it('publishes a key of the spec format that reads /me', async () => {
    expect(demo).toMatch(/^abk_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}$/);
    const me = await t.api('/me', { key: demo });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ workspaceName: 'Tessera demonstration', keyPrefix: demo.slice(0, 16) });
    expect(me.body.expiresUtc).toBeNull();
  });

  it('answers /workspace with demonstration true and every field of the spec', async () => {
    const ws = await t.api('/workspace', { key: demo });
    expect(ws.status).toBe(200);
    expect(ws.body.demonstration).toBe(true);
    expect(Object.keys(ws.body).sort()).toEqual(
      [
        'workspaceId',
        'name',
        'demonstration',
        'events',
        'publishedEvents',
        'key',
        'rateLimit',
        'mcp',
        'docs',
      ].sort(),
    );
    expect(Object.keys(ws.body.key).sort()).toEqual(
      ['apiKeyId', 'name', 'prefix', 'scopes', 'createdUtc', 'expiresUtc'].sort(),
    );
    expect(ws.body.events).toBeGreaterThan(0);
    expect(ws.body.publishedEvents).toBeGreaterThan(0);
    expect(ws.body.publishedEvents).toBeLessThanOrEqual(ws.body.events);
  });

  it('counts events and published events as the list shows them', async () => {
    const ws = (await t.api('/workspace', { key: demo })).body;
    const list = (await t.api('/events?limit=500', { key: demo })).body.data;
    expect(ws.events).toBe(list.length);
    expect(ws.publishedEvents).toBe(list.filter((e: { status: string }) => e.status === 'published').length);
  });

  it('gives mcp and docs as real addresses of this server', async () => {
    const ws = (await t.api('/workspace', { key: demo })).body;
    expect(ws.mcp).toBe(`${t.server.origin}/mcp`);
    expect(ws.docs).toBe(`${t.server.origin}/developers`);
    const docs = await t.fetch(ws.docs);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('Tessera API reference');
    const mcp = await t.postMcp(demo);
    expect(mcp.status).toBe(200);
    const answer = (await mcp.json()) as { result: { tools: { name: string }[] } };
    expect(answer.result.tools.map((x) => x.name)).toContain('get_workspace');
  });

  it('refuses POST /events with 403 demoWorkspace and creates nothing', async () => {
    const before = (await t.api('/workspace', { key: demo })).body.events;
    const res = await t.api('/events', { key: demo, method: 'POST', body: eventBody() });
    expectProblem(res, 403, 'demoWorkspace');
    expect((await t.api('/workspace', { key: demo })).body.events).toBe(before);
  });

  it('refuses POST /events with an Idempotency-Key with 403 demoWorkspace', async () => {
    const res = await t.api('/events', {
      key: demo,
      method: 'POST',
      body: eventBody(),
      headers: { 'idempotency-key': 'demo-try' },
    });
    expectProblem(res, 403, 'demoWorkspace');
  });

  it('refuses PATCH /events/{eventId} with 403 demoWorkspace and changes nothing', async () => {
    const event = (await t.api('/events?limit=1', { key: demo })).body.data[0];
    const res = await t.api(`/events/${event.eventId}`, {
      key: demo,
      method: 'PATCH',
      body: { name: 'Mine now' },
    });
    expectProblem(res, 403, 'demoWorkspace');
    expect((await t.api(`/events/${event.eventId}`, { key: demo })).body.name).toBe(event.name);
  });

  it('refuses a write even when the body is wrong: demoWorkspace, not a validation error', async () => {
    const res = await t.api('/events', { key: demo, method: 'POST', body: { name: 42 } });
    expectProblem(res, 403, 'demoWorkspace');
  });

  it('refuses the MCP tools create_event and update_event with a demoWorkspace tool error', async () => {
    const client = await t.mcp(demo);
    const created = await client.callTool({ name: 'create_event', arguments: eventBody() });
    expect(created.isError).toBe(true);
    const problem = JSON.parse((created.content as { text: string }[])[0]!.text);
    expect(problem).toMatchObject({ code: 'demoWorkspace', status: 403 });
    const eventId = (await t.api('/events?limit=1', { key: demo })).body.data[0].eventId;
    const updated = await client.callTool({ name: 'update_event', arguments: { eventId, name: 'x' } });
    expect(updated.isError).toBe(true);
    expect(JSON.parse((updated.content as { text: string }[])[0]!.text).code).toBe('demoWorkspace');
    await client.close();
  });

  it('has no keys of its own to make', async () => {
    const me = (await t.api('/workspace', { key: demo })).body;
    await expect(t.key({ workspaceId: me.workspaceId, preset: 'dashboard' })).rejects.toThrow(
      /demonstration/,
    );
  });
});

describe('isolation between workspaces', () => {
  let a: { key: string; eventId: string; workspaceId: string };
  let b: { key: string; eventId: string; workspaceId: string };

  beforeAll(async () => {
    const make = async (name: string) => {
      const { workspaceId } = await t.workspace(name, true);
      const { key } = await t.key({ workspaceId, preset: 'everything' });
      const eventId = (await t.api('/events?limit=1', { key })).body.data[0].eventId;
      return { key, eventId, workspaceId };
    };
    a = await make('Workspace A');
    b = await make('Workspace B');
  });

  it("answers an event id of workspace A asked with workspace B's key with 404 eventNotFound", async () => {
    expect((await t.api(`/events/${a.eventId}`, { key: a.key })).status).toBe(200);
    expectProblem(await t.api(`/events/${a.eventId}`, { key: b.key }), 404, 'eventNotFound');
  });

  it("refuses to change workspace A's event with workspace B's key with 404 eventNotFound", async () => {
    const res = await t.api(`/events/${a.eventId}`, {
      key: b.key,
      method: 'PATCH',
      body: { name: 'Taken over' },
    });
    expectProblem(res, 404, 'eventNotFound');
    expect((await t.api(`/events/${a.eventId}`, { key: a.key })).body.name).not.toBe('Taken over');
  });

  it("answers the demonstration workspace's events with 404 to another workspace's key", async () => {
    const demoEvent = (await t.api('/events?limit=1', { key: demo })).body.data[0].eventId;
    expectProblem(await t.api(`/events/${demoEvent}`, { key: a.key }), 404, 'eventNotFound');
  });

  it("lists only the key's own workspace's events", async () => {
    const listA = (await t.api('/events?limit=500', { key: a.key })).body.data.map((e: any) => e.eventId);
    const listB = (await t.api('/events?limit=500', { key: b.key })).body.data.map((e: any) => e.eventId);
    expect(listA).toContain(a.eventId);
    expect(listA).not.toContain(b.eventId);
    expect(listB).not.toContain(a.eventId);
    expect(listA.filter((id: string) => listB.includes(id))).toEqual([]);
  });

  it('answers the same 404 for an id of another workspace as for an id that does not exist', async () => {
    const foreign = await t.api(`/events/${a.eventId}`, { key: b.key });
    const missing = await t.api('/events/00000000-0000-4000-8000-000000000001', { key: b.key });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body.code).toBe(missing.body.code);
    expect(foreign.body.title).toBe(missing.body.title);
  });

  it("keeps slugs unique across the deployment, since an event's address /e/{slug} is", async () => {
    const body = eventBody({ slug: 'same-slug-everywhere' });
    expect((await t.api('/events', { key: a.key, method: 'POST', body })).status).toBe(201);
    expectProblem(await t.api('/events', { key: b.key, method: 'POST', body }), 409, 'slugTaken');
    // A slug made from the name moves on to a free one instead.
    const named = eventBody({ name: 'Same slug everywhere' });
    const made = await t.api('/events', { key: b.key, method: 'POST', body: named });
    expect(made.status).toBe(201);
    expect(made.body.slug).toBe('same-slug-everywhere-2');
  });

  it("refuses workspace A's event over MCP to workspace B's key with an eventNotFound tool error", async () => {
    const client = await t.mcp(b.key);
    const res = await client.callTool({ name: 'get_event', arguments: { eventId: a.eventId } });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as { text: string }[])[0]!.text).code).toBe('eventNotFound');
    await client.close();
  });
});
