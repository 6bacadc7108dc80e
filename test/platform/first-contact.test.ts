// What a developer meets first: the demonstration key says what it can do, and a refused body
// lists every field problem in one answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { expectProblem, specReadScopes } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('First contact');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

describe('the demonstration key', () => {
  it('holds the read scopes only (the assistant preset), personal data included', async () => {
    const me = (await t.api('/me', { key: demoKey.key })).body;
    expect([...me.scopes].sort()).toEqual([...specReadScopes].sort());
  });

  it('is refused every write as demoWorkspace, not for a scope it lacks', async () => {
    const event = (await t.api('/events?limit=1', { key: demoKey.key })).body.data[0];
    for (const [method, path, body] of [
      ['POST', '/events', { name: 'x' }],
      ['PATCH', `/events/${event.eventId}`, { name: 'x' }],
      ['POST', `/events/${event.eventId}/sessions`, { title: 'x' }],
    ] as const) {
      expectProblem(await t.api(path, { key: demoKey.key, method, body }), 403, 'demoWorkspace');
    }
  });
});

describe('a refused body', () => {
  it('lists every field problem of a new event in one answer', async () => {
    const res = await t.api('/events', { key, method: 'POST', body: { name: 'Half an event' } });
    const problem = expectProblem(res, 400, 'invalidRequest');
    const fields = problem.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['currency', 'endsLocal', 'startsLocal', 'timeZone', 'venue']);
  });

  it('lists schema and rule problems together: a bad zone, a bad currency, an end before the start', async () => {
    const res = await t.api('/events', {
      key,
      method: 'POST',
      body: {
        name: 'Wrong in three ways',
        timeZone: 'Mars/Olympus',
        currency: 'XYZ',
        startsUtc: '2027-05-02T10:00:00Z',
        endsUtc: '2027-05-01T10:00:00Z',
        online: true,
        venue: { name: 'A hall' },
      },
    });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'currency',
      'endsUtc',
      'timeZone',
      'venue',
    ]);
  });

  it('names a wrong type as invalidBody and still lists the other fields', async () => {
    const res = await t.api('/events', { key, method: 'POST', body: { name: 42, timeZone: 'Europe/Oslo' } });
    const problem = expectProblem(res, 400, 'invalidBody');
    const fields = problem.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('name');
    expect(fields).toContain('currency');
    expect(fields).toContain('venue');
  });

  it('lists both problems of a discount code at once', async () => {
    const { workspaceId } = await t.workspace('Codes', true);
    const { key: k } = await t.key({ workspaceId, preset: 'everything' });
    const event = (await t.api('/events?limit=1', { key: k })).body.data[0];
    const res = await t.api(`/events/${event.eventId}/discount-codes`, {
      key: k,
      method: 'POST',
      body: { code: 'x', validFromUtc: '2027-01-02T00:00:00Z', validUntilUtc: '2027-01-01T00:00:00Z' },
    });
    const problem = expectProblem(res, 400, 'invalidRequest');
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'code',
      'percent',
      'validUntilUtc',
    ]);
  });
});

describe('required fields', () => {
  it('are the same in the OpenAPI document and in the MCP tool’s input schema (one source)', async () => {
    const doc = (await t.api('//api/v1/openapi.json')).body;
    const attendee = doc.components.schemas.NewAttendee;
    expect(attendee.required).toEqual(['ticketTypeId', 'firstName', 'lastName', 'email']);
    const body = doc.paths['/events/{eventId}/attendees'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['attendees']);
    const client = await t.mcp(key);
    const tool = (await client.listTools()).tools.find((x) => x.name === 'register_attendees')!;
    const input = tool.inputSchema as any;
    expect(input.required).toEqual(['eventId', 'attendees']);
    expect(input.properties.attendees.items.required).toEqual([
      'ticketTypeId',
      'firstName',
      'lastName',
      'email',
    ]);
    await client.close();
  });
});
