// The MCP server at /mcp through the official SDK client: the tool table with schemas and safety
// hints, the same data as REST, the same keys and problems, and the Origin check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryNames } from '../../mcp/discovery-tools';
import { tools } from '../../mcp/tools';
import { defaultToolsets } from '../../mcp/toolset-choice';
import { toolsetOf } from '../../mcp/toolsets';
import { eventBody, expectProblem } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { type ApiAnswer, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let everything: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('MCP workspace', true));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
});
afterAll(async () => t.close());

/** A raw Streamable HTTP POST, to see the HTTP answer the SDK client hides. */
async function rawMcp(
  headers: Record<string, string>,
  message: unknown = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {},
  },
): Promise<ApiAnswer> {
  const res = await t.fetch(`${t.server.origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

const toolProblem = (result: Record<string, unknown>) =>
  JSON.parse((result.content as { type: string; text: string }[])[0]!.text);

describe('tools/list', () => {
  it('lists every tool of the tool table with a description, an input schema and safety hints', async () => {
    const client = await t.mcp(everything, {}, '?toolsets=all');
    const listed = (await client.listTools()).tools;
    expect(listed.map((x) => x.name).sort()).toEqual([...tools.map((x) => x.name), ...discoveryNames].sort());
    for (const tool of listed) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations, tool.name).toBeDefined();
      expect(typeof hintsOf(tool).readOnlyHint).toBe('boolean');
      expect(typeof hintsOf(tool).destructiveHint).toBe('boolean');
    }
    await client.close();
  });

  it('marks the reading tools read-only and the writing tools not', async () => {
    const client = await t.mcp(everything);
    const byName = new Map((await client.listTools()).tools.map((x) => [x.name, x]));
    for (const name of ['get_me', 'get_workspace', 'list_events', 'get_event']) {
      expect(hintsOf(byName.get(name)!).readOnlyHint, name).toBe(true);
    }
    for (const name of ['create_event', 'update_event']) {
      expect(hintsOf(byName.get(name)!).readOnlyHint, name).toBe(false);
      expect(hintsOf(byName.get(name)!).destructiveHint, name).toBe(false);
    }
    await client.close();
  });

  it('derives input schemas from the operations: required fields and documented properties', async () => {
    const client = await t.mcp(everything);
    const byName = new Map((await client.listTools()).tools.map((x) => [x.name, x]));
    const create = byName.get('create_event')!.inputSchema as {
      properties: Record<string, { description?: string }>;
      required: string[];
    };
    expect(create.required).toEqual(expect.arrayContaining(['name', 'timeZone', 'currency']));
    expect(create.properties.timeZone?.description).toMatch(/IANA/);
    const get = byName.get('get_event')!.inputSchema as { required: string[] };
    expect(get.required).toEqual(['eventId']);
    await client.close();
  });
});

describe('tools/call gives the same data as REST', () => {
  it('answers get_me as GET /me does', async () => {
    const client = await t.mcp(everything);
    const mcp = await client.callTool({ name: 'get_me', arguments: {} });
    expect(mcp.isError).toBeFalsy();
    const rest = await t.api('/me', { key: everything });
    expect(mcp.structuredContent).toEqual(rest.body);
    expect(JSON.parse((mcp.content as { text: string }[])[0]!.text)).toEqual(rest.body);
    await client.close();
  });

  it('answers get_workspace as GET /workspace does, with the MCP address of this server', async () => {
    const client = await t.mcp(everything);
    const mcp = await client.callTool({ name: 'get_workspace', arguments: {} });
    const rest = await t.api('/workspace', { key: everything });
    expect(mcp.structuredContent).toEqual(rest.body);
    expect(rest.body.mcp).toBe(`${t.server.origin}/mcp`);
    await client.close();
  });

  it('answers list_events and get_event as the REST list and read do', async () => {
    const client = await t.mcp(everything);
    const list = await client.callTool({ name: 'list_events', arguments: { limit: 3 } });
    const rest = await t.api('/events?limit=3', { key: everything });
    expect((list.structuredContent as { data: unknown[] }).data).toEqual(rest.body.data);
    const eventId = rest.body.data[0].eventId;
    const one = await client.callTool({ name: 'get_event', arguments: { eventId } });
    expect(one.structuredContent).toEqual((await t.api(`/events/${eventId}`, { key: everything })).body);
    await client.close();
  });

  it('creates an event through create_event that REST then reads', async () => {
    const client = await t.mcp(everything);
    const made = await client.callTool({ name: 'create_event', arguments: eventBody() });
    expect(made.isError).toBeFalsy();
    const eventId = (made.structuredContent as { eventId: string }).eventId;
    const rest = await t.api(`/events/${eventId}`, { key: everything });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(made.structuredContent);
    await client.close();
  });
});

describe('tool errors carry the problem', () => {
  it('answers a missing scope with isError and the missingScope problem naming the scope', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['tickets:read'] });
    const client = await t.mcp(key);
    const res = await client.callTool({ name: 'list_events', arguments: {} });
    expect(res.isError).toBe(true);
    const problem = toolProblem(res);
    expect(problem).toMatchObject({
      code: 'missingScope',
      status: 403,
      scope: 'events:read',
      type: `${t.server.origin}/developers/errors#missingScope`,
      title: expect.any(String),
      traceId: expect.any(String),
    });
    expect(problem.error).toBe(problem.detail);
    await client.close();
  });

  it('answers bad arguments with the same invalidRequest problem as REST, listing the fields', async () => {
    const client = await t.mcp(everything);
    const res = await client.callTool({ name: 'list_events', arguments: { limit: 501 } });
    expect(res.isError).toBe(true);
    const problem = toolProblem(res);
    expect(problem.code).toBe('invalidRequest');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
    await client.close();
  });

  it('answers an argument of the wrong type with invalidBody', async () => {
    const client = await t.mcp(everything);
    const res = await client.callTool({ name: 'create_event', arguments: eventBody({ name: 7 }) });
    expect(res.isError).toBe(true);
    expect(toolProblem(res).code).toBe('invalidBody');
    await client.close();
  });

  it('answers a tampered cursor with invalidCursor, as REST does', async () => {
    const client = await t.mcp(everything);
    const res = await client.callTool({ name: 'list_events', arguments: { cursor: 'forged.cursor' } });
    expect(toolProblem(res).code).toBe('invalidCursor');
    await client.close();
  });

  it('answers an unknown tool with the protocol error the MCP specification names (-32602), with the nearest tools', async () => {
    const res = await rawMcp(
      { authorization: `Bearer ${everything}` },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_attendees', arguments: {} } },
    );
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown tool: get_attendees\./),
      data: { tool: 'get_attendees', nearest: expect.arrayContaining(['get_attendee']) },
    });
  });
});

describe('bodies on MCP', () => {
  const post = (body: string) =>
    t.fetch(`${t.server.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${everything}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });

  it('refuses a body that is not JSON with a JSON-RPC parse error (400, id null), not a server error', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('refuses a body larger than 1 MB with 413, a JSON-RPC error carrying payloadTooLarge', async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {}, pad: 'x'.repeat(1_100_000) }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      id: null,
      error: { code: -32000, data: { code: 'payloadTooLarge' } },
    });
  });
});

describe('keys on MCP', () => {
  it('refuses a connection without a key: HTTP 401 invalidKey as problem+json', async () => {
    await expect(t.mcp(null)).rejects.toThrow();
    const res = await rawMcp({});
    expectProblem(res, 401, 'invalidKey');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses an unknown key with HTTP 401 invalidKey', async () => {
    const res = await rawMcp({ authorization: `Bearer abk_ABCDEFGHIJKL_${'z'.repeat(43)}` });
    expectProblem(res, 401, 'invalidKey');
  });

  it('accepts the key in X-Api-Key as REST does', async () => {
    const res = await rawMcp({ 'x-api-key': everything });
    expect(res.status).toBe(200);
    // The default toolsets' tools (an everything key may call them all) and the discovery tools.
    const defaults = tools.filter((x) => defaultToolsets.includes(toolsetOf(x)));
    expect(res.body.result.tools.length).toBe(defaults.length + discoveryNames.size);
  });

  it('sends the rate headers on MCP answers too', async () => {
    const res = await rawMcp({ authorization: `Bearer ${everything}` });
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"default";q=\d+;w=60$/);
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
  });
});

describe('Origin check', () => {
  it('refuses a browser request from another origin with 403 invalidOrigin', async () => {
    const res = await rawMcp({ authorization: `Bearer ${everything}`, origin: 'https://evil.example' });
    expectProblem(res, 403, 'invalidOrigin');
  });

  it('refuses another origin before looking at the key', async () => {
    const res = await rawMcp({ origin: 'https://evil.example' });
    expectProblem(res, 403, 'invalidOrigin');
  });

  it('refuses a look-alike of its own origin (other scheme or port)', async () => {
    const own = new URL(t.server.origin);
    for (const origin of [`http://${own.host}`, `https://${own.hostname}:1`, 'null']) {
      const res = await rawMcp({ authorization: `Bearer ${everything}`, origin });
      expectProblem(res, 403, 'invalidOrigin');
    }
  });

  it('refuses an SDK client that sends a foreign Origin', async () => {
    await expect(t.mcp(everything, { origin: 'https://evil.example' })).rejects.toThrow();
  });

  it("accepts a browser request from the service's own origin", async () => {
    const res = await rawMcp({ authorization: `Bearer ${everything}`, origin: t.server.origin });
    expect(res.status).toBe(200);
    const client = await t.mcp(everything, { origin: t.server.origin });
    expect((await client.callTool({ name: 'get_me', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('accepts requests without an Origin header (non-browser clients)', async () => {
    const res = await rawMcp({ authorization: `Bearer ${everything}` });
    expect(res.status).toBe(200);
  });
});
