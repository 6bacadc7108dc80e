// Compressed answers (issue 29 item 6, src/http/compression.ts): Brotli or gzip when the client asks,
// for JSON, CSV and the pages' scripts of 1 KiB or more (gzip on a tie, but for the files the server
// holds, which are compressed once and answered 304 when revalidated); never without Accept-Encoding (curl's
// default), never HTML pages (BREACH), never MCP's event streams. Read with a raw HTTPS client, so
// the bytes on the wire are what is checked (fetch would undo the compression unseen).
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { compressedHeldFile } from '../../src/http/compression';
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

  it('takes gzip for an answer made per request when the client weighs both alike, Brotli when it weighs br more', async () => {
    const path = `/api/v1/events/${eventId}/attendees?limit=500`;
    const tie = await wire(path, { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(tie.headers['content-encoding']).toBe('gzip');
    const br = await wire(path, { ...auth(), 'accept-encoding': 'gzip;q=0.9, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(br))).toEqual(JSON.parse(decoded(tie)));
  });

  it("follows the client's weights: gzip over a lighter br, nothing when both are refused", async () => {
    const path = `/api/v1/events/${eventId}/attendees?limit=100`;
    const encodingFor = async (acceptEncoding: string) =>
      (await wire(path, { ...auth(), 'accept-encoding': acceptEncoding })).headers['content-encoding'];
    expect(await encodingFor('br;q=0.5, gzip')).toBe('gzip');
    expect(await encodingFor('br')).toBe('br');
    expect(await encodingFor('*')).toBe('gzip');
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

  it('answers a held file with an ETag, and 304 with no body when the browser revalidates it', async () => {
    for (const path of [
      '/scan/jsqr.js',
      '/scan/icon-192.png',
      '/developers/assets/scalar.js',
      '/api/v1/openapi.json',
    ]) {
      const first = await wire(path, { 'accept-encoding': 'gzip, br' });
      expect(first.status, path).toBe(200);
      expect(first.headers.etag, path).toMatch(/^W\/"[\w-]{22}"$/);
      const again = await wire(path, { 'accept-encoding': 'gzip, br', 'if-none-match': first.headers.etag! });
      expect(again.status, path).toBe(304);
      expect(again.bytes.length, path).toBe(0);
      expect(again.headers.etag, path).toBe(first.headers.etag);
      expect(again.headers.vary, path).toMatch(/accept-encoding/i);
      const other = await wire(path, { 'if-none-match': 'W/"another"' });
      expect(other.status, path).toBe(200);
      expect(other.headers.etag, path).toBe(first.headers.etag);
    }
  });

  it('compresses a held file once, harder than an answer made per request, Brotli on a tie', async () => {
    const plain = await wire('/scan/jsqr.js');
    const br = await wire('/scan/jsqr.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    // Quality 4, what an answer made per request gets, leaves it a third larger.
    const perRequest = brotliCompressSync(plain.bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(br.bytes.length).toBeLessThan(perRequest.length * 0.8);
    const gzipped = await wire('/scan/jsqr.js', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped.bytes).equals(plain.bytes)).toBe(true);
    const again = await wire('/scan/jsqr.js', { 'accept-encoding': 'br' });
    expect(again.bytes.equals(br.bytes)).toBe(true);
  });

  it('keeps the compressed bytes with the held file: the same Buffer for the same file and encoding', async () => {
    const file = Buffer.from(JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i })) }));
    const first = await compressedHeldFile(file, 'br');
    expect(await compressedHeldFile(file, 'br')).toBe(first);
    expect(await compressedHeldFile(file, 'gzip')).not.toBe(first);
    // Another Buffer with the same bytes is another file: nothing is kept by content.
    expect(await compressedHeldFile(Buffer.from(file), 'br')).not.toBe(first);
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
