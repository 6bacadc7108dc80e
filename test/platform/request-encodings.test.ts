// Request bodies with a Content-Encoding (issue 50 item 3), sent raw over HTTPS to the real server:
// gzip, deflate and br are decoded for the API, /mcp and the public form, with the same 1 MB cap
// on what decoding gives (a decompression bomb is stopped early, 413); any other coding, or codings
// stacked, is 415 naming it with Accept-Encoding; bytes that are not what their coding says are 400.
import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { type RawAnswer, rawHttps } from '../support/raw-https';
import { addTicketType } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { formPerson, publishedEvent } from '../support/sign-up';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Encodings', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

function post(path: string, body: Buffer, encoding: string, type = 'application/json'): Promise<RawAnswer> {
  return rawHttps(t, path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': type,
      'content-encoding': encoding,
      'content-length': String(body.length),
      accept: 'application/json, text/event-stream',
    },
    body,
  });
}

function problemOf(res: RawAnswer, status: number, code: string): Record<string, any> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(res.text);
  expect(problem.code).toBe(code);
  return problem;
}

/** CPU milliseconds this process spent since `start` (a process.cpuUsage()). */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1_000;
}

/** 200 MB of zeros, gzipped to about 200 KB. */
const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024));

describe('coded request bodies on the REST API', () => {
  it('decodes a gzip JSON body on a POST', async () => {
    const res = await post('/api/v1/events', gzipSync(json(eventBody({ name: 'Gzipped' }))), 'gzip');
    expect(res.status, res.text).toBe(201);
    expect(JSON.parse(res.text).name).toBe('Gzipped');
  });

  it('decodes br, deflate, x-gzip and identity bodies alike, whatever the case of the coding', async () => {
    const sent: [string, (b: Buffer) => Buffer][] = [
      ['br', brotliCompressSync],
      ['deflate', deflateSync],
      ['x-gzip', gzipSync],
      ['GZIP', gzipSync],
      ['identity', (b) => b],
      ['identity, br', brotliCompressSync],
    ];
    for (const [encoding, encode] of sent) {
      const res = await post(
        '/api/v1/events',
        encode(json(eventBody({ name: `Sent ${encoding}` }))),
        encoding,
      );
      expect(res.status, `${encoding}: ${res.text}`).toBe(201);
      expect(JSON.parse(res.text).name).toBe(`Sent ${encoding}`);
    }
  });

  it('refuses a decompression bomb with 413 payloadTooLarge, stopping at the cap', async () => {
    // Counted in this process's CPU time (the server runs in it), not on the clock, which a loaded
    // machine stretches: inflating all 200 MB costs far more than the whole refused request.
    const inflating = process.cpuUsage();
    gunzipSync(bomb);
    const inflateAll = cpuMsSince(inflating);
    const refusing = process.cpuUsage();
    const problem = problemOf(await post('/api/v1/events', bomb, 'gzip'), 413, 'payloadTooLarge');
    const refuse = cpuMsSince(refusing);
    expect(problem.detail).toMatch(/decodes to more than 1 MB/);
    expect(refuse, `refusing took ${refuse} ms of CPU, inflating it all ${inflateAll} ms`).toBeLessThan(
      inflateAll / 3,
    );
  });

  it('refuses a body just over 1 MB decoded, as it refuses one sent plain', async () => {
    const big = json(eventBody({ description: 'x'.repeat(1024 * 1024) }));
    problemOf(await post('/api/v1/events', gzipSync(big), 'gzip'), 413, 'payloadTooLarge');
  });

  it('refuses zstd with 415 unsupportedEncoding naming it, and Accept-Encoding listing what is taken', async () => {
    const res = await post('/api/v1/events', json(eventBody()), 'zstd');
    const problem = problemOf(res, 415, 'unsupportedEncoding');
    expect(problem.encoding).toBe('zstd');
    expect(problem.detail).toContain('zstd');
    expect(res.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('refuses compress, an unknown coding and stacked codings with 415, each named', async () => {
    for (const encoding of ['compress', 'snappy', 'gzip, gzip', 'gzip, br']) {
      const problem = problemOf(
        await post('/api/v1/events', json(eventBody()), encoding),
        415,
        'unsupportedEncoding',
      );
      expect(problem.encoding, encoding).toBe(encoding);
      expect(problem.detail, encoding).toContain(encoding);
    }
  });

  it('refuses bytes that are not gzip (or br) as their coding says with 400 invalidBody', async () => {
    const corrupt = gzipSync(json(eventBody()));
    corrupt.fill(0x41, 10, 40);
    expect(problemOf(await post('/api/v1/events', corrupt, 'gzip'), 400, 'invalidBody').detail).toMatch(
      /gzip/,
    );
    problemOf(await post('/api/v1/events', json(eventBody()), 'gzip'), 400, 'invalidBody');
    problemOf(await post('/api/v1/events', json(eventBody()), 'br'), 400, 'invalidBody');
  });

  it('lists unsupportedEncoding in the OpenAPI document beside payloadTooLarge, with Accept-Encoding', async () => {
    const doc = JSON.parse((await rawHttps(t, '/api/v1/openapi.json')).text);
    const answer = doc.paths['/events'].post.responses['415'];
    expect(answer.description).toContain('unsupportedEncoding');
    expect(answer.headers['Accept-Encoding']).toBeDefined();
  });
});

describe('coded request bodies on /mcp', () => {
  it('decodes a gzip JSON-RPC body', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_me', arguments: {} },
    };
    const res = await post('/mcp', gzipSync(json(message)), 'gzip');
    expect(res.status, res.text).toBe(200);
    const answer = JSON.parse(res.text);
    expect(answer.id).toBe(3);
    expect(answer.result.isError).toBeFalsy();
  });

  it('decodes a br JSON-RPC body', async () => {
    const res = await post(
      '/mcp',
      brotliCompressSync(json({ jsonrpc: '2.0', id: 4, method: 'tools/list' })),
      'br',
    );
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text).result.tools.length).toBeGreaterThan(0);
  });

  it('answers a bomb with 413 and zstd with 415 (Accept-Encoding), in JSON-RPC with the problem as data', async () => {
    const big = await post('/mcp', bomb, 'gzip');
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { code: 'payloadTooLarge' } },
    });
    const zstd = await post('/mcp', json({ jsonrpc: '2.0', id: 5, method: 'tools/list' }), 'zstd');
    expect(zstd.status).toBe(415);
    expect(zstd.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(JSON.parse(zstd.text)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: expect.stringContaining('zstd'),
        data: { code: 'unsupportedEncoding', encoding: 'zstd' },
      },
    });
  });
});

describe('coded form bodies', () => {
  async function formEvent() {
    const event = await publishedEvent(t, key);
    const typeId = await addTicketType(t, event.eventId, { name: 'Day pass' });
    return { ...event, typeId };
  }
  const formOf = (typeId: string) =>
    Buffer.from(
      new URLSearchParams({ [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' }).toString(),
    );
  // Sent as the service's own page sends it (same origin), so only the coding is in question.
  const sendForm = (slug: string, body: Buffer, encoding: string) =>
    rawHttps(t, `/e/${slug}/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-encoding': encoding,
        'content-length': String(body.length),
        origin: t.server.origin,
        'sec-fetch-site': 'same-origin',
      },
      body,
    });

  it('registers from a gzip form post of the public page', async () => {
    const e = await formEvent();
    const res = await sendForm(e.slug, gzipSync(formOf(e.typeId)), 'gzip');
    expect(res.status, res.text).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^/e/${e.slug}/registered\\?t=`));
  });

  it('refuses a zstd form post with 415 naming it', async () => {
    const e = await formEvent();
    const res = await sendForm(e.slug, formOf(e.typeId), 'zstd');
    expect(problemOf(res, 415, 'unsupportedEncoding').encoding).toBe('zstd');
    expect(res.headers['accept-encoding']).toBe('gzip, deflate, br');
  });
});

describe('coded bodies on the OAuth endpoints', () => {
  it('refuses a coded body with 415, Accept-Encoding: identity (the provider reads bodies as sent)', async () => {
    const body = gzipSync(Buffer.from('grant_type=client_credentials'));
    const res = await post('/oauth/token', body, 'gzip', 'application/x-www-form-urlencoded');
    expect(problemOf(res, 415, 'unsupportedEncoding').encoding).toBe('gzip');
    expect(res.headers['accept-encoding']).toBe('identity');
  });
});
