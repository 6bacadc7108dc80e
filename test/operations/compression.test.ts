// Compressed answers (issue 29 item 6, src/http/compression.ts): Brotli or gzip when the client asks,
// for JSON, CSV and the pages' scripts of 1 KiB or more; never without Accept-Encoding (curl's
// default), never HTML pages (BREACH), never MCP's event streams. Read with a raw HTTPS client, so
// the bytes on the wire are what is checked (fetch would undo the compression unseen).
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let eventId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Compression', true);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const events = await t.api('/events?limit=50', { key });
  // The sample event with the most attendees, for a page worth compressing.
  eventId = events.body.data.sort((a: any, b: any) => (b.attendees ?? 0) - (a.attendees ?? 0))[0].eventId;
});
afterAll(async () => t.close());

interface Wire {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

function wire(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.server.origin}${path}`,
      { method, ca: readFileSync(t.server.certFile!), servername: 'localhost', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const decoded = (w: Wire): string => {
  const encoding = w.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(w.bytes).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(w.bytes).toString('utf8');
  expect(encoding).toBeUndefined();
  return w.bytes.toString('utf8');
};

const auth = () => ({ authorization: `Bearer ${key}` });

describe('compressed answers', () => {
  it('gzips a list page when asked, to the same JSON in far fewer bytes, and says it varies', async () => {
    const path = `/api/v1/events/${eventId}/attendees?limit=500`;
    const plain = await wire(path, auth());
    const gzipped = await wire(path, { ...auth(), 'accept-encoding': 'gzip' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(decoded(gzipped))).toEqual(JSON.parse(decoded(plain)));
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
  });

  it('prefers Brotli when the client takes both', async () => {
    const path = `/api/v1/events/${eventId}/attendees?limit=500`;
    const br = await wire(path, { ...auth(), 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(br)).data.length).toBeGreaterThan(0);
  });

  it("follows the client's weights: gzip over a lighter br, nothing when both are refused", async () => {
    const path = `/api/v1/events/${eventId}/attendees?limit=100`;
    const encodingFor = async (acceptEncoding: string) =>
      (await wire(path, { ...auth(), 'accept-encoding': acceptEncoding })).headers['content-encoding'];
    expect(await encodingFor('br;q=0.5, gzip')).toBe('gzip');
    expect(await encodingFor('*')).toBe('br');
    expect(await encodingFor('gzip;q=0, br;q=0')).toBeUndefined();
    expect(await encodingFor('deflate')).toBeUndefined();
  });

  it('sends a small answer as it is', async () => {
    const me = await wire('/api/v1/me', {
      authorization: `Bearer ${demoKey.key}`,
      'accept-encoding': 'gzip, br',
    });
    expect(me.status).toBe(200);
    expect(me.bytes.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the OpenAPI document and a CSV export, the byte-order mark kept', async () => {
    const doc = await wire('/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(doc)).openapi).toBe('3.1.0');
    const csv = await wire(`/api/v1/events/${eventId}/exports/attendees?format=csv`, {
      ...auth(),
      'accept-encoding': 'gzip',
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(decoded(csv).startsWith('\uFEFF"attendeeId"')).toBe(true);
  });

  it("compresses the pages' scripts but never an HTML page", async () => {
    const script = await wire('/scan/scan.js', { 'accept-encoding': 'br' });
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('br');
    const page = await wire('/developers', { 'accept-encoding': 'gzip, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.bytes.length).toBeGreaterThan(1024);
    expect(page.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses an MCP event stream', async () => {
    const answer = await wire(
      '/mcp',
      {
        authorization: `Bearer ${demoKey.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'accept-encoding': 'gzip, br',
      },
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    );
    expect(answer.status).toBe(200);
    if (String(answer.headers['content-type']).startsWith('text/event-stream'))
      expect(answer.headers['content-encoding']).toBeUndefined();
    expect(decoded(answer)).toContain('list_events');
  });
});
