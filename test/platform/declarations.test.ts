// Operations declare what invoke enforces: their module, whether they are
// door features, the problems they answer, ETag and If-Match. REST, MCP and the OpenAPI document all
// read the one declaration, and nothing outside it is ever answered.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../core/platform/pipeline/invoke';
import { defineOperation } from '../../core/platform/pipeline/operation';
import { problemsOf } from '../../core/platform/pipeline/operation-problems';
import { isProblem, type ProblemCode, problem, problemCatalogue } from '../../core/platform/problems';
import { tools } from '../../mcp/tools';
import { documentedPath } from '../../rest/openapi';
import { routes } from '../../rest/routes';
import { expectProblem } from '../support/fixtures';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let ids: ReturnType<typeof sampleIds>;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Declarations', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
  doc = (await t.api('//api/v1/openapi.json')).body;
});
afterAll(async () => t.close());

describe('the declaration of every operation', () => {
  it('names only codes of the problem catalogue', () => {
    for (const route of routes)
      for (const code of route.operation.problems)
        expect(Object.keys(problemCatalogue), `${route.operation.name}: ${code}`).toContain(code);
  });

  it('puts module and door features on operations about one event, door features in the check-in module', () => {
    for (const { operation } of routes) {
      if (operation.module || operation.doors)
        expect(Object.keys(operation.input.entries), operation.name).toContain('eventId');
      if (operation.doors) expect(operation.module, operation.name).toBe('checkin');
    }
  });

  it('is what the OpenAPI document lists as each operation’s problems, status by status', () => {
    for (const route of routes) {
      const responses = doc.paths[documentedPath(route)][route.method.toLowerCase()].responses;
      const documented = new Set<string>();
      for (const [status, response] of Object.entries<any>(responses)) {
        if (!response.content?.['application/problem+json']) continue;
        const codes = Object.keys(response.content['application/problem+json'].examples);
        for (const code of codes) {
          documented.add(code);
          expect(String(problemCatalogue[code as ProblemCode].status), `${route.path} ${code}`).toBe(status);
        }
      }
      // Node's parser may refuse any request before it is routed (test/platform/hardening*.test.ts).
      const expected = new Set<string>([
        ...problemsOf(route.operation),
        'invalidRequest',
        'requestTimeout',
        'headersTooLarge',
      ]);
      if (route.method !== 'GET')
        for (const code of ['payloadTooLarge', 'unsupportedEncoding']) expected.add(code);
      expect([...documented].sort(), `${route.method} ${route.path}`).toEqual([...expected].sort());
    }
  });

  it('documents 400 for malformed path ids, 422 on every idempotent POST and Retry-After on 409 in-flight', () => {
    for (const route of routes) {
      const responses = doc.paths[documentedPath(route)][route.method.toLowerCase()].responses;
      if (route.path.includes(':'))
        expect(responses['400']?.description, route.path).toContain('invalidRequest');
      if (route.operation.idempotent) {
        expect(responses['422']?.description, route.path).toContain('idempotencyKeyReused');
        expect(responses['400']?.description, route.path).toContain('invalidIdempotencyKey');
        expect(responses['409']?.headers?.['Retry-After'], route.path).toBeDefined();
      }
    }
  });

  it('gives MCP tools of conditional writes an ifMatch argument and idempotent ones an idempotencyKey', async () => {
    const client = await t.mcp(key, {}, '?toolsets=all');
    const listed = (await client.listTools()).tools;
    for (const tool of tools) {
      const properties = listed.find((x) => x.name === tool.name)!.inputSchema.properties ?? {};
      expect('ifMatch' in properties, tool.name).toBe(Boolean(tool.operation.ifMatch));
      expect('idempotencyKey' in properties, tool.name).toBe(Boolean(tool.operation.idempotent));
    }
    await client.close();
  });
});

describe('the rules invoke applies from the declaration', () => {
  const doorCalls = (eventId: string, attendeeId: string) =>
    [
      ['GET', `/events/${eventId}/doors`],
      ['GET', `/events/${eventId}/check-ins`],
      ['GET', `/events/${eventId}/check-ins/summary`],
      [
        'POST',
        `/events/${eventId}/check-ins/offline`,
        { scans: [{ attendeeId, scannedUtc: '2026-01-01T10:00:00Z' }] },
      ],
      ['POST', `/events/${eventId}/attendees/${attendeeId}/check-in`, {}],
    ] as const;

  it('answers door features of an online event with 409 onlineEvent, even with the check-in module off', async () => {
    const remote = ids.event('remote');
    const event = (await t.api(`/events/${remote}`, { key })).body;
    expect(event.online).toBe(true);
    expect(event.modules.checkin).toBe(false);
    const attendee = (await t.api(`/events/${remote}/attendees?limit=1`, { key })).body.data[0];
    for (const [method, path, body] of doorCalls(remote, attendee.attendeeId)) {
      const res = await t.api(path, { key, method, body });
      expectProblem(res, 409, 'onlineEvent');
    }
  });

  it('answers them with 409 moduleOff naming the module for an event in person with check-in off', async () => {
    const forum = ids.event('forum');
    expect(
      (await t.api(`/events/${forum}`, { key, method: 'PATCH', body: { modules: { checkin: false } } }))
        .status,
    ).toBe(200);
    const attendee = (await t.api(`/events/${forum}/attendees?limit=1`, { key })).body.data[0];
    for (const [method, path, body] of doorCalls(forum, attendee.attendeeId)) {
      const res = await t.api(path, { key, method, body });
      expect(expectProblem(res, 409, 'moduleOff').module).toBe('checkin');
    }
    expect(
      (await t.api(`/events/${forum}`, { key, method: 'PATCH', body: { modules: { checkin: true } } }))
        .status,
    ).toBe(200);
    expect((await t.api(`/events/${forum}/doors`, { key })).status).toBe(200);
  });

  it('gives MCP the entity tag in _meta and takes it back as ifMatch', async () => {
    const summit = ids.event('summit');
    const ticketTypeId = ids.ticketType('summit', 'standard');
    const rest = await t.api(`/events/${summit}/ticket-types/${ticketTypeId}`, { key });
    const client = await t.mcp(key);
    const read = await client.callTool({
      name: 'get_ticket_type',
      arguments: { eventId: summit, ticketTypeId },
    });
    expect(read._meta?.etag).toBe(rest.headers.get('etag'));
    const stale = await client.callTool({
      name: 'update_ticket_type',
      arguments: { eventId: summit, ticketTypeId, maxPerOrder: 7, ifMatch: '"stale"' },
    });
    expect(stale.isError).toBe(true);
    expect(JSON.parse((stale.content as { text: string }[])[0]!.text).code).toBe('preconditionFailed');
    const fresh = await client.callTool({
      name: 'update_ticket_type',
      arguments: { eventId: summit, ticketTypeId, maxPerOrder: 7, ifMatch: read._meta?.etag },
    });
    expect(fresh.isError).toBeFalsy();
    expect((fresh.structuredContent as { maxPerOrder: number }).maxPerOrder).toBe(7);
    await client.close();
  });
});

describe('a problem an operation does not declare', () => {
  const careless = defineOperation({
    name: 'carelessRead',
    title: 'Careless',
    description: 'An operation whose handler answers a code it does not declare.',
    scope: 'events:read',
    effect: 'read',
    problems: [],
    input: v.object({}),
    output: v.object({}),
    async handler() {
      throw problem('clash');
    },
  });

  async function call(strictProblems: boolean) {
    const logged: { details: object; message: string }[] = [];
    const log = {
      info() {},
      warn() {},
      error: (details: object, message: string) => logged.push({ details, message }),
    };
    const services = { ...t.server.services, log, strictProblems };
    const actor = { workspaceId, scopes: ['events:read'], demonstration: false, keyId: 'k' } as never;
    const answer = await invoke(
      careless,
      { db: services.db, clock: services.clock, actor, services, request: { origin: '' } },
      {},
    ).then(
      () => 'answered',
      (error: unknown) => (isProblem(error) ? error.code : String(error)),
    );
    return { answer, logged };
  }

  it('is logged, and answered as a fault when problems are strict (as in this suite)', async () => {
    const strict = await call(true);
    expect(strict.answer).toBe('serverError');
    expect(strict.logged).toEqual([
      {
        details: { operation: 'carelessRead', code: 'clash' },
        message: expect.stringContaining('does not declare'),
      },
    ]);
    const lenient = await call(false);
    expect(lenient.answer).toBe('clash');
    expect(lenient.logged).toHaveLength(1);
  });
});
