// Every malformed /mcp body is answered as a JSON-RPC error object (issue 50 item 6), as the MCP
// specification (Streamable HTTP over JSON-RPC 2.0) asks, with the HTTP status the SDK's own
// transport gives such errors: 400 with -32700 (parse error) for what cannot be read as JSON text,
// 400 with -32600 (invalid request) for JSON that is not a JSON-RPC message, id null unless the
// message's own id can be read. Sent raw over HTTPS; the SDK's client still works beside them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawAnswer, rawHttps } from '../support/raw-https';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Malformed MCP bodies', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

function post(body: string | Buffer, type = 'application/json'): Promise<RawAnswer> {
  return rawHttps(t, '/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': type,
      accept: 'application/json, text/event-stream',
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  });
}

/** The answer is a JSON-RPC error object (never problem+json) with this status, code and id. */
function rpcError(res: RawAnswer, status: number, code: number, id: string | number | null = null) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const answer = JSON.parse(res.text);
  expect(answer).toMatchObject({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
  expect(answer).not.toHaveProperty('result');
  return answer.error as { code: number; message: string; data?: Record<string, unknown> };
}

const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_me","arguments":';

describe('bodies that cannot be read as JSON text: 400, -32700 parse error', () => {
  it('answers bytes that are not UTF-8 with a parse error', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${call}{"x":"`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}}'),
    ]);
    const error = rpcError(await post(bytes), 400, -32700);
    expect(error.message).toMatch(/^Parse error: .*UTF-8/);
    expect(error.data).toMatchObject({ code: 'invalidBody', status: 400 });
  });

  it('answers a lone surrogate (escaped, or as CESU-8 bytes) with a parse error', async () => {
    const escaped = rpcError(await post(`${call}{"x":"\\ud800"}}}`), 400, -32700);
    expect(escaped.message).toMatch(/lone surrogate/);
    const bytes = Buffer.concat([
      Buffer.from(`${call}{"x":"`),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}}}'),
    ]);
    rpcError(await post(bytes), 400, -32700);
  });

  it('answers a NUL character, escaped or raw, with a parse error', async () => {
    expect(rpcError(await post(`${call}{"x":"a\\u0000b"}}}`), 400, -32700).message).toMatch(/NUL/);
    rpcError(await post(`${call}{"x":"a\u0000b"}}}`), 400, -32700);
  });

  it('answers text that is not JSON, nesting over 32 levels, and another charset with a parse error', async () => {
    rpcError(await post(`${call}{`), 400, -32700);
    rpcError(await post(`${call}${'['.repeat(40)}${']'.repeat(40)}}}`), 400, -32700);
    rpcError(await post(`${call}{}}}`, 'application/json; charset=iso-8859-1'), 400, -32700);
  });
});

describe('JSON that is not JSON-RPC: 400, -32600 invalid request', () => {
  it('answers a number, a string, null and an empty object with an invalid request, id null', async () => {
    for (const body of ['42', '"tools/list"', 'null', '{}', 'true']) {
      const error = rpcError(await post(body), 400, -32600);
      expect(error.message, body).toMatch(/^Invalid Request: /);
    }
  });

  it('answers a message of another JSON-RPC version or without a method with its own id', async () => {
    rpcError(await post('{"jsonrpc":"1.0","id":9,"method":"tools/list"}'), 400, -32600, 9);
    rpcError(await post('{"jsonrpc":"2.0","id":"abc","params":{}}'), 400, -32600, 'abc');
    rpcError(await post('{"jsonrpc":"2.0","id":{"no":1},"method":"tools/list"}'), 400, -32600, null);
  });

  it('answers an empty batch, and a batch holding a non-message, with an invalid request', async () => {
    expect(rpcError(await post('[]'), 400, -32600).message).toMatch(/empty/);
    expect(
      rpcError(await post('[{"jsonrpc":"2.0","id":1,"method":"tools/list"}, 7]'), 400, -32600).message,
    ).toMatch(/item 1/);
  });
});

describe('requests the transport refuses, in JSON-RPC as the SDK answers them', () => {
  it('answers a body of another media type with 415 and an empty body with a parse error', async () => {
    rpcError(await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 'text/plain'), 415, -32000);
    rpcError(await post(''), 400, -32700);
  });
});

describe('well-formed calls beside them', () => {
  it('still answers a real SDK client, and a raw well-formed message', async () => {
    const client = await t.mcp(key);
    const me = await client.callTool({ name: 'get_me', arguments: {} });
    expect(me.isError).toBeFalsy();
    await client.close();
    const res = await post('{"jsonrpc":"2.0","id":12,"method":"tools/list"}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 12,
      result: { tools: expect.any(Array) },
    });
  });
});
