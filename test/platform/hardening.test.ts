// What an outside probe found, each mended and kept: bodies that are too
// deep or not faithful UTF-8 text, links made from a forged Host header, unlimited failed
// authentications, slow bodies, a world-readable database, two different credentials, cursors
// across workspaces, upper-case ids, schema and behaviour disagreeing, and a 400 where 405 belongs.
import { readFileSync, statSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUuid } from '../../core/platform/ids';
import { eventBody, expectProblem, sleep } from '../support/fixtures';
import { person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let workspaceId: string;
let key: string;
let ids: ReturnType<typeof sampleIds>;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Hardening', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ids = sampleIds(workspaceId);
});
afterAll(async () => t.close());

const rawPost = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
  t.fetch(`${t.server.origin}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body,
  });

async function problemOf(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

describe('request bodies', () => {
  it('refuses a body nested 5,000 deep with 400 invalidBody, with or without an Idempotency-Key', async () => {
    const deep = `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const headers of [{ 'idempotency-key': 'deep-1' }, {}] as Record<string, string>[]) {
      const answer = await problemOf(await rawPost('/events', deep, headers));
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalidBody' } });
      expect(answer.body.detail).toContain('32 levels');
    }
  });

  it('takes 32 levels of nesting and refuses 33', async () => {
    const nested = (levels: number) =>
      JSON.stringify({
        ...eventBody(),
        extra: JSON.parse(`${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`),
      });
    // 32 levels pass the body parser; the operation then refuses the field it does not declare.
    const taken = await problemOf(await rawPost('/events', nested(32)));
    expect(taken.body).toMatchObject({ code: 'invalidRequest', errors: [{ field: 'extra' }] });
    expect((await problemOf(await rawPost('/events', nested(33)))).body.code).toBe('invalidBody');
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    // "Café" with the é as a lone Latin-1 byte: not UTF-8.
    const [before, after] = JSON.stringify(eventBody({ name: 'Caf@' })).split('@') as [string, string];
    const broken = Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);
    const answer = await problemOf(await rawPost('/events', broken));
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'invalidBody', detail: 'The body is not valid UTF-8.' },
    });
  });

  it('refuses lone surrogates and NUL characters in names with 400 invalidBody', async () => {
    for (const name of ['\\ud800 alone', 'nul \\u0000 inside']) {
      const text = JSON.stringify(eventBody()).replace(/"name":"[^"]*"/, `"name":"${name}"`);
      expect((await problemOf(await rawPost('/events', text))).body.code, name).toBe('invalidBody');
    }
    const ticketTypeId = ids.ticketType('summit', 'standard');
    const text = JSON.stringify({ attendees: [person(ticketTypeId, { firstName: 'X' })] }).replace(
      '"X"',
      '"\\udfff"',
    );
    expect((await problemOf(await rawPost(`/events/${ids.event('summit')}/attendees`, text))).body.code).toBe(
      'invalidBody',
    );
  });

  it('refuses a body declared in another charset than UTF-8', async () => {
    const answer = await problemOf(
      await rawPost('/events', JSON.stringify(eventBody()), {
        'content-type': 'application/json; charset=utf-16',
      }),
    );
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalidBody' } });
  });
});

describe('absolute URLs', () => {
  function getWithHost(path: string, host: string): Promise<any> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        `${t.server.origin}/api/v1${path}`,
        {
          ca: readFileSync(t.server.certFile!),
          servername: 'localhost',
          headers: { host, authorization: `Bearer ${key}` },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('never come from the Host header', async () => {
    const event = await getWithHost(`/events/${ids.event('summit')}`, 'evil.example');
    expect(event.url.startsWith(`${t.server.origin}/e/`)).toBe(true);
    const workspace = await getWithHost('/workspace', 'evil.example');
    expect(workspace.mcp).toBe(`${t.server.origin}/mcp`);
    expect(JSON.stringify([event, workspace])).not.toContain('evil.example');
  });

  it('come from --public-url when it is set', async () => {
    const other = await startTestServer({ publicUrl: 'https://events.example.org' });
    try {
      const { workspaceId: w } = await other.workspace('Public', true);
      const { key: k } = await other.key({ workspaceId: w, preset: 'everything' });
      const event = (await other.api(`/events/${sampleIds(w).event('summit')}`, { key: k })).body;
      expect(event.url).toMatch(/^https:\/\/events\.example\.org\/e\//);
      const refused = await other.api('/events/nope', { key: k });
      expect(refused.body.type).toBe('https://events.example.org/developers/errors#invalidRequest');
      // The MCP server accepts browser requests from the public origin.
      const client = await other.mcp(k, { origin: 'https://events.example.org' });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await other.close();
    }
  });
});

describe('authentication', () => {
  it('answers 401 invalidKey to two different credentials, and takes the same key sent twice', async () => {
    const other = await t.key({ workspaceId, scopes: ['events:read'] });
    const both = await t.api('/me', { key, headers: { 'x-api-key': other.key } });
    expectProblem(both, 401, 'invalidKey');
    const same = await t.api('/me', { key, headers: { 'x-api-key': key } });
    expect(same.status).toBe(200);
  });

  it('limits failed authentications per source address with 429 and Retry-After, never a working key', async () => {
    const guarded = await startTestServer({ env: { TESSERA_AUTH_FAILURE_LIMIT: '5' } });
    try {
      const { workspaceId: w } = await guarded.workspace('Guarded');
      const { key: real } = await guarded.key({ workspaceId: w, scopes: ['events:read'] });
      const bad = 'abk_AAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await guarded.api('/me', { key: bad })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const limited = await guarded.api('/me', { key: bad });
      expectProblem(limited, 429, 'rateLimited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The real key from the same address goes on working: failing cannot lock it out.
      expect((await guarded.api('/me', { key: real })).status).toBe(200);
      expect((await guarded.api('/me')).status).toBe(429);
    } finally {
      await guarded.close();
    }
  });
});

describe('slow requests', () => {
  it('cuts off a request whose body does not arrive in time with 408 requestTimeout as problem+json', async () => {
    const slow = await startTestServer({ timeouts: { headersMs: 500, requestMs: 1_000 } });
    try {
      const { workspaceId: w } = await slow.workspace('Slow');
      const { key: k } = await slow.key({ workspaceId: w, scopes: ['events:write'] });
      const port = Number(new URL(slow.server.origin).port);
      const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false });
      await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
      const started = Date.now();
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      const closed = new Promise<number>((resolve) =>
        socket.once('close', () => resolve(Date.now() - started)),
      );
      socket.write(
        `POST /api/v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${k}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      );
      const after = await Promise.race([closed, sleep(15_000).then(() => -1)]);
      socket.destroy();
      expect(after).toBeGreaterThan(0);
      // The time-out is 1 s; the check runs every half second (a loaded machine may be slower).
      expect(after).toBeLessThan(10_000);
      expect(answer, answer).toMatch(/^HTTP\/1\.1 408/);
      // Answered as every refusal is, not with Node's bare status line.
      expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ status: 408, code: 'requestTimeout', instance: '/api/v1/events' });
      expect(answer).toContain(`X-Trace-Id: ${body.traceId}`);
    } finally {
      await slow.close();
    }
  });
});

describe('the data folder', () => {
  it('keeps the database, its WAL and the instance key readable by the operator alone', () => {
    // Under test:postgres the database is PostgreSQL's, not a file here.
    const database = onPostgres ? [] : ['tessera.db', 'tessera.db-wal', 'tessera.db-shm'];
    for (const file of [...database, 'instance.key'])
      expect((statSync(join(t.dataDir, file)).mode & 0o777).toString(8), file).toBe('600');
    expect((statSync(t.dataDir).mode & 0o077).toString(8)).toBe('0');
  });
});

describe('cursors', () => {
  it('refuse a cursor made for another workspace with 400 invalidCursor', async () => {
    const { workspaceId: other } = await t.workspace('Other', true);
    const { key: otherKey } = await t.key({ workspaceId: other, preset: 'everything' });
    const page = await t.api('/events?limit=1', { key });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const res = await t.api(`/events?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`, {
      key: otherKey,
    });
    expectProblem(res, 400, 'invalidCursor');
  });
});

describe('ids', () => {
  it('are read without regard to case, in paths and bodies', async () => {
    const summit = ids.event('summit');
    const upper = await t.api(`/events/${summit.toUpperCase()}`, { key });
    expect(upper.status).toBe(200);
    expect(upper.body.eventId).toBe(summit);
    const ticketTypeId = ids.ticketType('summit', 'standard');
    const made = await register(t, key, summit.toUpperCase(), [person(ticketTypeId.toUpperCase())]);
    expect(made.status).toBe(201);
    expect(made.body.attendees[0].ticketTypeId).toBe(ticketTypeId);
  });

  it('name the unknown ticket type only when it is an id at all', async () => {
    const summit = ids.event('summit');
    const notAnId = await register(t, key, summit, [person('standard')]);
    expect(expectProblem(notAnId, 400, 'unknownTicket').ticketTypeId).toBeUndefined();
    const stranger = crypto.randomUUID();
    expect(
      expectProblem(await register(t, key, summit, [person(stranger)]), 400, 'unknownTicket').ticketTypeId,
    ).toBe(stranger);
    expect(isUuid(stranger)).toBe(true);
  });
});

describe('the OpenAPI document and the service agree', () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await t.api('//api/v1/openapi.json')).body;
  });

  it('says updatedSince is a date-time, as the service reads it', async () => {
    const parameter = doc.paths['/events'].get.parameters.find((p: any) => p.name === 'updatedSince');
    expect(parameter.schema).toMatchObject({ type: 'string', format: 'date-time' });
    expectProblem(await t.api('/events?updatedSince=', { key }), 400, 'invalidUpdatedSince');
    expect((await t.api('/events?updatedSince=2026-01-01T00:00:00Z', { key })).status).toBe(200);
  });

  it('states the email rule of the attendee filter as a pattern the service holds to', async () => {
    const parameter = doc.paths['/events/{eventId}/attendees'].get.parameters.find(
      (p: any) => p.name === 'email',
    );
    const pattern = new RegExp(parameter.schema.pattern);
    const summit = ids.event('summit');
    for (const email of ['0@com', 'ada@example.org', 'a.b+c@x-y.example.co', 'no-at-sign', 'a@b.c']) {
      const res = await t.api(`/events/${summit}/attendees?email=${encodeURIComponent(email)}`, { key });
      expect(res.status === 200, email).toBe(pattern.test(email));
    }
  });

  it('answers a method the literal path does not take with 405, not a refusal of the path as an id', async () => {
    const res = await t.api(`/events/${ids.event('summit')}/attendees/search`, {
      key,
      method: 'PATCH',
      body: {},
    });
    expectProblem(res, 405, 'methodNotAllowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('unique keys under concurrent creates', () => {
  it('answer one create of a slug 201 and every other 409 slugTaken, never 500', async () => {
    const body = eventBody({ slug: `race-${Math.random().toString(36).slice(2, 8)}` });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.api('/events', { key, method: 'POST', body })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) expectProblem(a, 409, 'slugTaken');
  });

  it('answer one create of a discount code 201 and every other 409 codeTaken, never 500', async () => {
    const summit = ids.event('summit');
    const answers = await Promise.all(
      ['RACE10', 'race10', 'Race10', 'RACE10', 'rAcE10', 'RACE10'].map((code) =>
        t.api(`/events/${summit}/discount-codes`, { key, method: 'POST', body: { code, percent: 10 } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) expectProblem(a, 409, 'codeTaken');
  });
});
