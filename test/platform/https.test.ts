// HTTPS only (general rule 1): the service speaks TLS itself with a self-signed certificate made
// once in the data folder, or sits behind a trusted TLS proxy and refuses what reached it over HTTP.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTls } from '../../src/tls';
import { expectProblem } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

describe('behind a trusted proxy (--trust-proxy)', () => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer({ trustProxy: true });
    const { workspaceId } = await t.workspace('Proxy workspace');
    ({ key } = await t.key({ workspaceId, preset: 'dashboard' }));
  });
  afterAll(async () => t.close());

  it('refuses a request the proxy received over plain HTTP with 403 httpsRequired', async () => {
    expectProblem(await t.api('/me', { key }), 403, 'httpsRequired');
    expectProblem(
      await t.api('/me', { key, headers: { 'x-forwarded-proto': 'http' } }),
      403,
      'httpsRequired',
    );
  });

  it('refuses plain HTTP before looking at the key, so a key sent in clear gets no data', async () => {
    const res = await t.api('/workspace', { key });
    expectProblem(res, 403, 'httpsRequired');
    expect(res.body.workspaceId).toBeUndefined();
  });

  it('refuses plain HTTP for the docs and the MCP endpoint too', async () => {
    expectProblem(await t.api('//developers'), 403, 'httpsRequired');
    expectProblem(await t.api('/openapi.json'), 403, 'httpsRequired');
    expectProblem(await t.api('//mcp', { key, method: 'POST', body: {} }), 403, 'httpsRequired');
  });

  it('answers a request the proxy received over HTTPS (X-Forwarded-Proto: https)', async () => {
    const res = await t.api('/me', { key, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.body.keyPrefix).toBe(key.slice(0, 16));
  });

  it('gives addresses under the public https origin the proxy forwards', async () => {
    const res = await t.api('/workspace', {
      key,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'events.example.org' },
    });
    expect(res.status).toBe(200);
    expect(res.body.mcp).toBe('https://events.example.org/mcp');
    expect(res.body.docs).toBe('https://events.example.org/developers');
  });
});

describe('speaking TLS itself (default)', () => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('TLS workspace');
    ({ key } = await t.key({ workspaceId, preset: 'dashboard' }));
  });
  afterAll(async () => t.close());

  it('answers over HTTPS at an https origin', async () => {
    expect(t.server.origin).toMatch(/^https:\/\//);
    expect(t.server.restUrl).toBe(`${t.server.origin}/api/v1`);
    expect(t.server.mcpUrl).toBe(`${t.server.origin}/mcp`);
    expect((await t.api('/me', { key })).status).toBe(200);
  });

  /** A plain-HTTP request to the TLS port, as `curl http://localhost:PORT/...` sends it. */
  function plainRequest(
    method: string,
    path: string,
  ): Promise<{ status?: number; headers: any; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: t.server.port, method, path, headers: { authorization: `Bearer ${key}` } },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.setTimeout(5000, () => req.destroy(new Error('timed out')));
      req.end();
    });
  }

  it('redirects a plain http:// GET on its port to the https address, with no data', async () => {
    const answer = await plainRequest('GET', '/api/v1/workspace');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`${t.server.origin}/api/v1/workspace`);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.text).toBe(`This port speaks HTTPS only. Use ${t.server.origin}/api/v1/workspace\n`);
  });

  it('answers another plain http:// method with a short plain-text 400 naming the https address', async () => {
    const answer = await plainRequest('POST', '/api/v1/events');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(`${t.server.origin}/api/v1/events`);
    expect(answer.text).not.toContain('{');
  });

  it('still speaks TLS on the same port afterwards', async () => {
    expect((await t.api('/me', { key })).status).toBe(200);
  });

  it('keeps its self-signed certificate in the data folder', () => {
    expect(t.server.certFile).not.toBeNull();
    expect(t.server.certFile!.startsWith(t.dataDir)).toBe(true);
    expect(readFileSync(t.server.certFile!, 'utf8')).toContain('BEGIN CERTIFICATE');
  });
});

describe('the self-signed certificate', () => {
  it('is generated once and reused on the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-tls-'));
    try {
      const first = await loadTls(dir);
      expect(first.selfSigned).toBe(true);
      expect(existsSync(first.certFile)).toBe(true);
      const second = await loadTls(dir);
      expect(second.cert).toBe(first.cert);
      expect(second.key).toBe(first.key);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives way to the operator's certificate (--tls-cert, --tls-key)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-tls-'));
    const other = mkdtempSync(join(tmpdir(), 'tessera-tls-'));
    try {
      const made = await loadTls(dir);
      const keyFile = join(dir, 'tls', 'localhost-key.pem');
      const given = await loadTls(other, made.certFile, keyFile);
      expect(given).toMatchObject({
        selfSigned: false,
        certFile: made.certFile,
        cert: made.cert,
        key: made.key,
      });
      expect(existsSync(join(other, 'tls'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
