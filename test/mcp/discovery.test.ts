// Toolsets (issue 25): a connection lists the default toolsets, or those its address adds; the
// discovery tools reach the rest: list_toolsets names them, describe_tools gives their definitions,
// call_tool runs one through tools/call's own path. Each keeps to what the key may call. Through
// the SDK's client over HTTPS. The budgets of each list: toolsets.test.ts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryNames } from '../../mcp/discovery-tools';
import { tools } from '../../mcp/tools';
import { defaultToolsets, type ToolsetName, toolsetNames } from '../../mcp/toolset-choice';
import { toolsetOf } from '../../mcp/toolsets';
import { areas, routes } from '../../rest/routes';
import { accessToken } from '../support/access-tokens';
import { hintsOf } from '../support/mcp-hints';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let everything: string;
let eventId: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Discovery workspace', true));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const first = await call(await connect(everything), 'list_events', { limit: 1 });
  eventId = first.structuredContent.data[0].eventId;
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

async function connect(key: string, query = ''): Promise<Client> {
  const client = await t.mcp(key, {}, query);
  clients.push(client);
  return client;
}

const keyWith = async (scopes: string[]) => (await t.key({ workspaceId, scopes, expires: 'never' })).key;

/** A tools/call answer as the client gets it, the problem of a refusal read from its text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as Record<string, any>;
  const problem = result.isError ? JSON.parse(result.content[0].text) : undefined;
  return { ...result, problem } as Record<string, any>;
}

const viaCallTool = (client: Client, name: string, args?: Record<string, unknown>) =>
  call(client, 'call_tool', { name, ...(args ? { arguments: args } : {}) });

const namesListed = async (client: Client) => (await client.listTools()).tools.map((x) => x.name);

const toolsOf = (...toolsets: ToolsetName[]) =>
  tools.filter((x) => toolsets.includes(toolsetOf(x))).map((x) => x.name);

/** A problem body without what differs between two calls (the trace). */
const sameProblem = ({ traceId: _, ...rest }: Record<string, unknown>) => rest;

describe('toolsets are the areas of the API', () => {
  it('puts every tool in one toolset, that of its REST area (automation subscriptions with webhooks, as core keeps them)', () => {
    const areaKeys = new Map(Object.entries(areas).map(([key, area]) => [area.name, key]));
    for (const route of routes) {
      const tool = tools.find((x) => x.operation === route.operation);
      if (!tool) continue;
      const area = areaKeys.get(route.tag)!;
      expect(toolsetOf(tool), tool.name).toBe(area === 'hooks' ? 'webhooks' : area);
    }
    for (const tool of tools) expect(toolsetNames, tool.name).toContain(toolsetOf(tool));
    expect(toolsetNames).toEqual(Object.keys(areas).filter((key) => key !== 'hooks'));
  });
});

describe('the toolsets a connection lists, chosen by its address', () => {
  it('lists the default toolsets and the discovery tools on /mcp', async () => {
    const listed = await namesListed(await connect(everything));
    expect(listed.sort()).toEqual([...toolsOf(...defaultToolsets), ...discoveryNames].sort());
    expect(listed).toContain('create_event');
    expect(listed).not.toContain('list_sponsors');
  });

  it('adds the toolsets ?toolsets= names, comma-separated or repeated', async () => {
    const expected = [...toolsOf(...defaultToolsets, 'sponsors', 'crew'), ...discoveryNames].sort();
    expect((await namesListed(await connect(everything, '?toolsets=sponsors,crew'))).sort()).toEqual(
      expected,
    );
    expect((await namesListed(await connect(everything, '?toolsets=crew&toolsets=sponsors'))).sort()).toEqual(
      expected,
    );
  });

  it('lists every toolset with toolsets=all', async () => {
    const listed = await namesListed(await connect(everything, '?toolsets=all'));
    expect(listed.sort()).toEqual([...tools.map((x) => x.name), ...discoveryNames].sort());
  });

  it("keeps to the key's scopes whatever the toolsets", async () => {
    const listed = await namesListed(await connect(await keyWith(['sponsors:read']), '?toolsets=all'));
    expect(listed).toContain('list_sponsors');
    expect(listed).toContain('call_tool');
    expect(listed).not.toContain('list_events');
    expect(listed).not.toContain('list_crew');
  });

  it('refuses a toolset that is none with 400 invalidRequest, naming those there are', async () => {
    const res = await t.postMcp(everything, undefined, '?toolsets=sponsors,tickts');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ code: 'invalidRequest', unknown: ['tickts'], toolsets: toolsetNames });
    expect(body.detail).toContain('tickts');
    expect(body.detail).toContain('sponsors, cfp');
    expect(body.detail).toContain('or all');
    await expect(t.mcp(everything, {}, '?toolsets=tickts')).rejects.toThrow();
    expect((await t.postMcp(everything, undefined, '?toolsets=all,tickts')).status).toBe(400);
  });

  it("takes a sign-in's access token for /mcp on an address with toolsets, as its audience is the server's", async () => {
    const made = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    const token = await accessToken(t, { keyId: made.apiKeyId, audience: 'mcp', scopes: ['sponsors:read'] });
    const listed = await namesListed(await connect(token, '?toolsets=sponsors'));
    expect(listed).toContain('list_sponsors');
    expect(listed).not.toContain('list_events');
  });

  it('tells the assistant in the instructions how to reach the other toolsets', async () => {
    const text = (await connect(everything)).getInstructions() ?? '';
    expect(text).toContain('list_toolsets');
    expect(text).toContain('describe_tools');
    expect(text).toContain('call_tool');
    expect(text).toContain('/mcp?toolsets=');
    for (const name of defaultToolsets) expect(text).toContain(name);
  });
});

describe('list_toolsets', () => {
  it("names every toolset, what it holds, the key's tools in it with their titles, and whether and where it is listed", async () => {
    const client = await connect(everything, '?toolsets=crew');
    const { structuredContent: answer } = await call(client, 'list_toolsets');
    const mcpUrl = `${t.server.origin}/mcp`;
    expect(answer.toolsets.map((x: any) => x.name)).toEqual(toolsetNames);
    expect(answer.allUrl).toBe(`${mcpUrl}?toolsets=all`);
    const byName = new Map<string, any>(answer.toolsets.map((x: any) => [x.name, x]));
    expect(byName.get('events')).toMatchObject({ listed: true, url: `${mcpUrl}?toolsets=crew` });
    expect(byName.get('crew')).toMatchObject({ listed: true, url: `${mcpUrl}?toolsets=crew` });
    expect(byName.get('sponsors')).toMatchObject({ listed: false, url: `${mcpUrl}?toolsets=crew,sponsors` });
    expect(byName.get('sponsors').says).toMatch(/leads/);
    const titles = new Map(tools.map((x) => [x.name, x.operation.title]));
    const all = answer.toolsets.flatMap((x: any) => x.tools);
    expect(all.map((x: any) => x.name).sort()).toEqual(tools.map((x) => x.name).sort());
    for (const tool of all) expect(tool.title, tool.name).toBe(titles.get(tool.name));
  });

  it('gives an address that lists the toolset', async () => {
    const { structuredContent: answer } = await call(await connect(everything), 'list_toolsets');
    const sponsors = answer.toolsets.find((x: any) => x.name === 'sponsors');
    const query = new URL(sponsors.url).search;
    const listed = await namesListed(await connect(everything, query));
    for (const tool of sponsors.tools) expect(listed).toContain(tool.name);
  });

  it('shows a key only the toolsets and tools it may call', async () => {
    const client = await connect(await keyWith(['events:read']));
    const { structuredContent: answer } = await call(client, 'list_toolsets');
    const mayCall = tools.filter((x) => ['any', 'events:read'].includes(x.operation.scope));
    expect(answer.toolsets.map((x: any) => x.name)).toEqual(
      toolsetNames.filter((name) => mayCall.some((x) => toolsetOf(x) === name)),
    );
    expect(answer.toolsets.flatMap((x: any) => x.tools.map((y: any) => y.name))).toEqual(
      mayCall.map((x) => x.name),
    );
    const events = answer.toolsets[1].tools.map((x: any) => x.name);
    expect(events).toContain('get_event');
    expect(events).not.toContain('create_event');
  });
});

describe('describe_tools', () => {
  it('gives the definitions tools/list gives, of named tools or of a toolset, listed here or not', async () => {
    const client = await connect(everything);
    const everyDefinition = (await (await connect(everything, '?toolsets=all')).listTools()).tools;
    const definition = (name: string) => everyDefinition.find((x) => x.name === name);
    const named = await call(client, 'describe_tools', { names: ['list_sponsors', 'create_room'] });
    expect(named.structuredContent.tools).toEqual([definition('list_sponsors'), definition('create_room')]);
    const set = await call(client, 'describe_tools', { toolset: 'webhooks' });
    expect(set.structuredContent.tools.map((x: any) => x.name)).toEqual(toolsOf('webhooks'));
    for (const tool of set.structuredContent.tools) expect(tool).toEqual(definition(tool.name));
  });

  it('refuses a tool the key may not call as it refuses one that is none, and a toolset that is none', async () => {
    const client = await connect(await keyWith(['events:read']));
    const refused = await call(client, 'describe_tools', {
      names: ['get_event', 'create_event', 'get_evnt'],
    });
    expect(refused.problem).toMatchObject({ code: 'invalidRequest', unknown: ['create_event', 'get_evnt'] });
    const empty = await call(client, 'describe_tools', { toolset: 'programme' });
    expect(empty.structuredContent.tools).toEqual([]);
    const wrong = await call(client, 'describe_tools', { toolset: 'programs' });
    expect(wrong.problem).toMatchObject({ code: 'invalidRequest', toolsets: toolsetNames });
    expect((await call(client, 'describe_tools')).problem).toMatchObject({ code: 'invalidRequest' });
    const extra = await call(client, 'describe_tools', { names: ['get_event'], verbose: true });
    expect(extra.problem).toMatchObject({ code: 'invalidRequest' });
    expect(extra.problem.detail).toContain('verbose');
  });
});

describe('call_tool', () => {
  it('is marked as what it may do: change, remove and reach outside', async () => {
    const tool = (await (await connect(everything)).listTools()).tools.find((x) => x.name === 'call_tool')!;
    expect(hintsOf(tool)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('answers a read exactly as the direct call, entity tag included, listed here or not', async () => {
    const client = await connect(everything);
    for (const [name, args] of [
      ['list_sponsors', { eventId }],
      ['get_event', { eventId }],
    ] as const) {
      const direct = await call(client, name, args);
      expect(direct.isError, name).toBeFalsy();
      expect(await viaCallTool(client, name, args), name).toEqual(direct);
    }
    expect((await call(client, 'get_event', { eventId }))._meta.etag).toMatch(/^"/);
  });

  it('passes ifMatch through to a conditional write', async () => {
    const client = await connect(everything);
    const read = await call(client, 'get_event', { eventId });
    const changed = await viaCallTool(client, 'update_event', {
      eventId,
      name: 'Renamed through call_tool',
      ifMatch: read._meta.etag,
    });
    expect(changed.isError).toBeFalsy();
    expect(changed.structuredContent.name).toBe('Renamed through call_tool');
    expect(changed._meta.etag).toBe((await call(client, 'get_event', { eventId }))._meta.etag);
    const stale = await viaCallTool(client, 'update_event', {
      eventId,
      name: 'Again',
      ifMatch: read._meta.etag,
    });
    expect(stale.problem).toMatchObject({ code: 'preconditionFailed', status: 412 });
  });

  it('passes idempotencyKey through: a write it made answers again to the direct call with the same key', async () => {
    const client = await connect(everything);
    const args = { eventId, name: 'Room by call_tool', idempotencyKey: 'call-tool-room-1' };
    const made = await viaCallTool(client, 'create_room', args);
    expect(made.isError).toBeFalsy();
    expect(await viaCallTool(client, 'create_room', args)).toEqual(made);
    expect(await call(client, 'create_room', args)).toEqual(made);
    const rooms = await call(client, 'list_rooms', { eventId });
    expect(rooms.structuredContent.data.filter((x: any) => x.name === 'Room by call_tool')).toHaveLength(1);
  });

  it("refuses what the key may not call as the direct call does: missingScope, peopleScope, the demonstration's demoWorkspace", async () => {
    const cases = [
      [await keyWith(['events:read']), 'create_event', { name: 'Not allowed' }, 'missingScope'],
      [await keyWith(['events:read']), 'list_sponsors', { eventId }, 'missingScope'],
      [await keyWith(['attendees:read']), 'search_attendees', { eventId, q: 'an' }, 'peopleScope'],
      [t.server.demoKey, 'create_event', { name: 'Not in the demonstration' }, 'demoWorkspace'],
    ] as const;
    for (const [key, name, args, code] of cases) {
      const client = await connect(key);
      const direct = await call(client, name, args);
      const through = await viaCallTool(client, name, args);
      expect(through.problem, name).toMatchObject({ code });
      expect(sameProblem(through.problem), name).toEqual(sameProblem(direct.problem));
    }
  });

  it('refuses a name that is no tool of the table, with the nearest, and arguments that are no object', async () => {
    const client = await connect(everything);
    const unknown = await viaCallTool(client, 'list_sponsor', { eventId });
    expect(unknown.problem).toMatchObject({ code: 'invalidRequest', tool: 'list_sponsor' });
    expect(unknown.problem.nearest).toContain('list_sponsors');
    expect((await viaCallTool(client, 'call_tool', {})).problem).toMatchObject({ code: 'invalidRequest' });
    const notObject = await call(client, 'call_tool', { name: 'get_me', arguments: ['x'] });
    expect(notObject.problem).toMatchObject({ code: 'invalidRequest' });
  });

  it('refuses arguments the tool does not take, as the direct call does', async () => {
    const client = await connect(everything);
    const direct = await call(client, 'get_event', { eventId, colour: 'red' });
    expect(direct.isError).toBe(true);
    const through = await viaCallTool(client, 'get_event', { eventId, colour: 'red' });
    expect(sameProblem(through.problem)).toEqual(sameProblem(direct.problem));
  });
});
