// Issue 24, item 1: a key no operation declares is refused (400 invalidRequest, in `errors`), with
// the field meant when one is close, in a body, a nested object, a query string and an MCP tool's
// arguments alike; every parameter the spec names for a list still passes. The tools' argument
// schemas say so (additionalProperties: false), as the OpenAPI bodies do (test/openapi-types.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let eventId: string;
let ticketTypeId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Strict input');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const made = await t.api('/events', { key, method: 'POST', body: eventBody() });
  expect(made.status).toBe(201);
  eventId = made.body.eventId;
  ticketTypeId = await addTicketType(t, eventId, { capacity: 100 });
});
afterAll(async () => t.close());

function errorsOf(body: Record<string, any>): { field: string; message: string }[] {
  return body.errors;
}

describe('an unknown field in a body', () => {
  it('POST rooms with seats is refused, naming the field, and makes no room', async () => {
    const res = await t.api(`/events/${eventId}/rooms`, {
      key,
      method: 'POST',
      body: { name: 'Hall X', seats: 10 },
    });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(errorsOf(problem)).toEqual([{ field: 'seats', message: 'Not a field.' }]);
    expect(problem.detail).toBe('A field or parameter is missing or wrong. seats: Not a field.');
    const rooms = await t.api(`/events/${eventId}/rooms`, { key });
    expect(rooms.body.data.map((r: { name: string }) => r.name)).not.toContain('Hall X');
  });

  it('PATCH a ticket type with capcity is refused with the field meant, and changes nothing', async () => {
    const path = `/events/${eventId}/ticket-types/${ticketTypeId}`;
    const res = await t.api(path, { key, method: 'PATCH', body: { capcity: 300 } });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(errorsOf(problem)).toEqual([{ field: 'capcity', message: 'Not a field; did you mean capacity?' }]);
    expect(problem.detail).toContain('capcity: Not a field; did you mean capacity?');
    expect((await t.api(path, { key })).body.capacity).toBe(100);
  });

  it('suggests across case and snake_case, and lists every unknown field with the wrong values', async () => {
    const res = await t.api(`/events/${eventId}/ticket-types/${ticketTypeId}`, {
      key,
      method: 'PATCH',
      body: { Capacity: 300, max_per_order: 2, name: 5 },
    });
    const problem = expectProblem(res, 400, 'invalidBody');
    expect(errorsOf(problem)).toEqual(
      expect.arrayContaining([
        { field: 'Capacity', message: 'Not a field; did you mean capacity?' },
        { field: 'max_per_order', message: 'Not a field; did you mean maxPerOrder?' },
        expect.objectContaining({ field: 'name' }),
      ]),
    );
  });

  it('a nested object is strict too: venue.cty names venue.city', async () => {
    const res = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({ venue: { name: 'Main hall', cty: 'Oslo', country: 'NO' } }),
    });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(errorsOf(problem)).toEqual([{ field: 'venue.cty', message: 'Not a field; did you mean city?' }]);
  });
});

describe('an unknown query parameter', () => {
  it('is refused on a list, with the parameter meant', async () => {
    const res = await t.api(`/events/${eventId}/ticket-types?limt=5`, { key });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(errorsOf(problem)).toEqual([{ field: 'limt', message: 'Not a field; did you mean limit?' }]);
  });

  it('is refused on a single read and on a write', async () => {
    expectProblem(await t.api(`/events/${eventId}?expand=all`, { key }), 400, 'invalidRequest');
    const write = await t.api(`/events/${eventId}/rooms?dryRun=true`, {
      key,
      method: 'POST',
      body: { name: 'Hall Y' },
    });
    expect(errorsOf(expectProblem(write, 400, 'invalidRequest'))).toEqual([
      { field: 'dryRun', message: 'Not a field.' },
    ]);
  });
});

describe('every parameter the spec names still passes', () => {
  const since = '2020-01-01T00:00:00Z';
  it.each([
    ['/events', `limit=5&updatedSince=${since}&status=draft`],
    ['/events/{eventId}/ticket-types', `limit=5&updatedSince=${since}`],
    [
      '/events/{eventId}/orders',
      `updatedSince=${since}&page=1&pageSize=10&sort=-created&status=paid&limit=10`,
    ],
    [
      '/events/{eventId}/attendees',
      `updatedSince=${since}&page=1&pageSize=10&sort=changed&limit=10&status=active`,
    ],
    ['/events/{eventId}/check-ins', 'after=0&pageSize=10&sort=changed&limit=10&page=1'],
    ['/events/{eventId}/sessions', `limit=5&updatedSince=${since}`],
    ['/events/{eventId}/sales', 'days=30'],
  ])('GET %s?%s', async (path, query) => {
    const res = await t.api(`${path.replace('{eventId}', eventId)}?${query}`, { key });
    expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({
      status: 200,
      body: null,
    });
  });
});

describe('an MCP tool call', () => {
  it('with an unknown argument is a tool error naming it and the argument meant', async () => {
    const client = await t.mcp(key);
    const refused = await callTool(client, 'update_ticket_type', { eventId, ticketTypeId, capcity: 300 });
    expect(refused.isError).toBe(true);
    expect(refused.data.code).toBe('invalidRequest');
    expect(refused.data.errors).toEqual([
      { field: 'capcity', message: 'Not a field; did you mean capacity?' },
    ]);
    const tag = (await callTool(client, 'get_ticket_type', { eventId, ticketTypeId })).data;
    expect(tag.capacity).toBe(100);
    await client.close();
  });

  it('is described as closed: every argument object of every tool says additionalProperties: false', async () => {
    const client = await t.mcp(key);
    const { tools } = await client.listTools();
    const open: string[] = [];
    const walk = (schema: any, at: string): void => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.type === 'object' && schema.properties && schema.additionalProperties !== false)
        open.push(at);
      for (const [name, inner] of Object.entries<any>(schema.properties ?? {})) walk(inner, `${at}.${name}`);
      walk(schema.items, `${at}[]`);
      for (const inner of schema.anyOf ?? []) walk(inner, at);
    };
    for (const tool of tools) walk(tool.inputSchema, tool.name);
    expect(open).toEqual([]);
    const update = tools.find((x) => x.name === 'update_attendee')!.inputSchema as any;
    expect(update.properties.answers.additionalProperties).toEqual({});
    await client.close();
  });

  it('still takes idempotencyKey and ifMatch, which stand for the REST headers', async () => {
    const client = await t.mcp(key);
    const made = await callTool(client, 'create_room', {
      eventId,
      name: 'Hall Z',
      idempotencyKey: 'strict-input-room',
    });
    expect(made.isError).toBe(false);
    const read = await client.callTool({ name: 'get_ticket_type', arguments: { eventId, ticketTypeId } });
    const etag = (read._meta as { etag: string }).etag;
    const patched = await callTool(client, 'update_ticket_type', {
      eventId,
      ticketTypeId,
      capacity: 120,
      ifMatch: etag,
    });
    expect(patched.isError).toBe(false);
    expect(patched.data.capacity).toBe(120);
    await client.close();
  });
});
