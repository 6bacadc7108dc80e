// What a second outside probe found, each mended and kept: receiver addresses that hid loopback or
// private networks inside IPv6 or behind a trailing dot, headers too large or malformed answered
// with a closed connection or a bare 400, and a second Authorization header silently ignored.
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProblem } from '../../core/platform/problems';
import { checkReceiverUrl } from '../../core/webhooks/receiver-address';
import { expectProblem } from '../support/fixtures';
import { loopbackMachineName } from '../support/loopback-name';
import { type ApiAnswer, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'round-two-test-master-key-0123456789abcdef' },
    delivery: { allowPrivate: false },
    dispatcher: false,
  });
  ({ workspaceId } = await t.workspace('Round two'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

/** Sends bytes as they are over TLS and reads the answer until the server closes the connection. */
function rawExchange(request: string): Promise<string> {
  const port = Number(new URL(t.server.origin).port);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('secureConnect', () => socket.write(request));
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
  });
}

/** An HTTP/1.1 answer read from the wire, as the API helper gives it (JSON bodies parsed). */
function parseAnswer(raw: string): ApiAnswer {
  const split = raw.indexOf('\r\n\r\n');
  expect(split, `no complete answer: ${JSON.stringify(raw.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...fields] = raw.slice(0, split).split('\r\n');
  const headers = new Headers();
  for (const field of fields) {
    const colon = field.indexOf(':');
    headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
  }
  let body = raw.slice(split + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = unchunk(body);
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // not JSON
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: parsed };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!size) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

describe('webhook receiver addresses', () => {
  const hidden = [
    'https://[::127.0.0.1]/in', // IPv4-compatible loopback
    'https://[::10.0.0.1]/in', // IPv4-compatible private
    'https://[::ffff:0:127.0.0.1]/in', // IPv4-translated loopback
    'https://[::ffff:10.0.0.1]/in', // IPv4-mapped private
    'https://[64:ff9b::127.0.0.1]/in', // NAT64 to loopback
    'https://[64:ff9b::192.168.1.1]/in', // NAT64 to a private network
    'https://[2002:c0a8:101::1]/in', // 6to4 of 192.168.1.1
    'https://[2002:7f00:1::1]/in', // 6to4 of 127.0.0.1
    'https://[::1:0:0]/in', // reserved, outside global unicast
  ];

  /** Both ways of naming a receiver refuse the address; the endpoint's refusal is returned. */
  async function refusedAsPrivate(url: string) {
    const endpoint = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url, eventTypes: ['order.paid'] },
    });
    const hook = await t.api('/hooks', {
      key,
      method: 'POST',
      body: { url, event: 'order.paid', client: 'zapier' },
    });
    expectProblem(hook, 400, 'webhookPrivate');
    return expectProblem(endpoint, 400, 'webhookPrivate');
  }

  it.each(hidden)('refuses %s with 400 webhookPrivate on POST /webhooks and POST /hooks', async (url) => {
    await refusedAsPrivate(url);
  });

  it('refuses the same addresses in the check OAuth client metadata documents go through', async () => {
    for (const url of hidden) {
      const refusal = await checkReceiverUrl(url, { allowPrivate: false }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isProblem(refusal) && refusal.code, url).toBe('webhookPrivate');
    }
  });

  it('takes a NAT64 or 6to4 address that leads to a public IPv4 address', async () => {
    for (const url of ['https://[64:ff9b::8.8.8.8]/in', 'https://[2002:808:808::1]/in']) {
      const made = await t.api('/webhooks', {
        key,
        method: 'POST',
        body: { url, eventTypes: ['order.paid'] },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
  });

  it('resolves a name with a trailing dot as the same name: the machine name. is refused like the machine name', async (ctx) => {
    // The resolver reads /etc/hosts for "vm" but not for "vm.".
    const name = await loopbackMachineName();
    if (!name) return ctx.skip();
    for (const url of [`https://${name}./in`, `https://${name}../in`])
      expect((await refusedAsPrivate(url)).detail).toContain('127.');
  });

  it('treats an unresolvable name with a trailing dot as the name without it (checked again at each delivery)', async () => {
    for (const url of ['https://nothing.example.org/in', 'https://nothing.example.org./in']) {
      const made = await t.api('/webhooks', {
        key,
        method: 'POST',
        body: { url, eventTypes: ['order.paid'] },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
  });
});

describe('requests Node refuses before the app reads them', () => {
  it('answers headers of 20 KB with 431 headersTooLarge as application/problem+json', async () => {
    const raw = await rawExchange(
      `GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const answer = parseAnswer(raw);
    const body = expectProblem(answer, 431, 'headersTooLarge');
    expect(answer.headers.get('connection')).toBe('close');
    expect(Number(answer.headers.get('content-length'))).toBe(
      Buffer.byteLength(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
    );
    expect(body.type).toBe(`${t.server.origin}/developers/errors#headersTooLarge`);
  });

  it.each([
    ['a control character in a header value', 'X-Note: a\u0001b'],
    ['a space in a header name', 'X Note: ab'],
  ])('answers %s with 400 invalidRequest as application/problem+json', async (_what, field) => {
    const raw = await rawExchange(`GET /api/v1/me?x=1 HTTP/1.1\r\nHost: localhost\r\n${field}\r\n\r\n`);
    const answer = parseAnswer(raw);
    const body = expectProblem(answer, 400, 'invalidRequest');
    expect(answer.headers.get('connection')).toBe('close');
    expect(body.instance).toBe('/api/v1/me');
    expect(body.detail).toMatch(/not well-formed HTTP\/1\.1/);
  });

  it('goes on answering other connections', async () => {
    await rawExchange('GET / HTTP/1.1\r\nHost: localhost\r\nX Bad: 1\r\n\r\n');
    expect((await t.api('/me', { key })).status).toBe(200);
  });
});

describe('two Authorization headers', () => {
  let other: string;
  beforeAll(async () => {
    ({ key: other } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' }));
  });

  const rest = (fields: string[]) =>
    rawExchange(
      `GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\n${fields.join('\r\n')}\r\nConnection: close\r\n\r\n`,
    ).then(parseAnswer);

  const mcp = (fields: string[]) => {
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    return rawExchange(
      [
        'POST /mcp HTTP/1.1',
        'Host: localhost',
        ...fields,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${Buffer.byteLength(message)}`,
        'Connection: close',
        '',
        message,
      ].join('\r\n'),
    ).then(parseAnswer);
  };

  it('answers 401 invalidKey to two different keys in two Authorization headers, on REST and MCP', async () => {
    const fields = [`Authorization: Bearer ${key}`, `Authorization: Bearer ${other}`];
    const body = expectProblem(await rest(fields), 401, 'invalidKey');
    expect(body.detail).toContain('two Authorization headers');
    expectProblem(await mcp(fields), 401, 'invalidKey');
    // Whichever comes first.
    expectProblem(await rest([...fields].reverse()), 401, 'invalidKey');
  });

  it('takes the same key sent twice, on REST and MCP', async () => {
    const fields = [`Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`];
    expect((await rest(fields)).status).toBe(200);
    expect((await mcp(fields)).status).toBe(200);
  });

  it('treats two X-Api-Key headers alike: different keys 401 invalidKey, the same key taken', async () => {
    expectProblem(await rest([`X-Api-Key: ${key}`, `X-Api-Key: ${other}`]), 401, 'invalidKey');
    expect((await rest([`X-Api-Key: ${key}`, `X-Api-Key: ${key}`])).status).toBe(200);
    expectProblem(
      await rest([`Authorization: Bearer ${key}`, `X-Api-Key: ${key}`, `X-Api-Key: ${other}`]),
      401,
      'invalidKey',
    );
  });
});
