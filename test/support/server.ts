// Starts the real service over TLS on an ephemeral port with its own SQLite file, and gives
// tests a fetch that trusts its self-signed certificate, plus a real MCP SDK client.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { Agent, fetch as undiciFetch } from 'undici';
import { createKey, type KeyRequest } from '../../core/admin/api-keys';
import { createWorkspace } from '../../core/admin/workspaces';
import type { Clock } from '../../core/platform/clock';
import type { DeliverySettings } from '../../core/platform/services';
import type { DispatcherOptions } from '../../core/webhooks/dispatcher';
import type { Logger } from '../../src/logger';
import { type RunningServer, startServer, type Timeouts } from '../../src/server';
import { settingsFrom } from '../../src/settings';
import { fromTemplate } from './store-template';
import { databaseFor, onPostgres } from './test-store';

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  server: RunningServer;
  dataDir: string;
  fetch: typeof globalThis.fetch;
  /** Calls the REST API (path below /api/v1, or an absolute path starting with //). */
  api<T = any>(
    path: string,
    options?: {
      method?: string;
      key?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ): Promise<ApiAnswer<T>>;
  workspace(name?: string, sample?: boolean): Promise<{ workspaceId: string; name: string }>;
  key(
    request: Omit<KeyRequest, 'name'> & { name?: string },
  ): Promise<{ apiKeyId: string; key: string; prefix: string }>;
  /** An MCP client of /mcp, or of /mcp with a query (?toolsets=…). */
  mcp(key: string | null, headers?: Record<string, string>, query?: string): Promise<Client>;
  /** One raw JSON-RPC message to /mcp with a bearer credential, to see the HTTP answer the SDK hides. */
  postMcp(credential: string, message?: unknown, query?: string): Promise<Response>;
  close(): Promise<void>;
}

export class MutableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestServerOptions {
  rateLimit?: number;
  clock?: Clock;
  trustProxy?: boolean;
  publicUrl?: string;
  /** More settings by environment (TESSERA_AUTH_FAILURE_LIMIT, ...). */
  env?: Record<string, string>;
  timeouts?: Timeouts;
  logger?: Logger;
  /** Delivery settings (a shorter time-out per attempt, private receivers allowed). */
  delivery?: Partial<DeliverySettings>;
  /** The dispatcher's limits, or false for none. */
  dispatcher?: Partial<DispatcherOptions> | false;
  /** false: the minute and nightly jobs never run by themselves (the test runs them). */
  scheduledJobs?: false;
}

/** A pino logger whose lines are kept in memory, for tests of what gets logged. */
export function capturingLogger(): { logger: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, any>) },
  );
  return { logger, lines };
}

/**
 * A test server's and its client's patience with a connection (unless a test sets its own): the
 * service's 10 s for a request's headers, and undici's 10 s to connect, were overrun when 300
 * clients connected at once on a loaded machine ("fetch failed" in the stampede probe).
 */
const patientTimeouts: Timeouts = { headersMs: 60_000, requestMs: 120_000 };

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-test-'));
  // A migrated database and a certificate from the run's template, not made anew for each server.
  fromTemplate(dataDir, !onPostgres);
  const settings = settingsFrom(
    {
      port: '0',
      host: '127.0.0.1',
      data: dataDir,
      database: await databaseFor(dataDir, { migrated: true }),
      trustProxy: options.trustProxy,
      publicUrl: options.publicUrl,
    },
    {
      TESSERA_RATE_LIMIT: String(options.rateLimit ?? 10_000),
      TESSERA_LOG_LEVEL: 'silent',
      ...(options.env ?? {}),
    },
  );
  const server = await startServer(settings, {
    clock: options.clock,
    timeouts: options.timeouts ?? patientTimeouts,
    logger: options.logger,
    delivery: options.delivery,
    dispatcher: options.dispatcher,
    scheduledJobs: options.scheduledJobs,
  });
  const ca = server.certFile ? readFileSync(server.certFile, 'utf8') : undefined;
  const dispatcher = new Agent({
    connect: { ca, servername: 'localhost', timeout: patientTimeouts.headersMs },
    keepAliveTimeout: 10_000,
  });
  const fetchWithCa = ((input: any, init?: any) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch;
  const base = options.trustProxy ? server.origin.replace('https:', 'http:') : server.origin;

  const test: TestServer = {
    server,
    dataDir,
    fetch: fetchWithCa,
    async api(path, o = {}) {
      const url = path.startsWith('//') ? `${base}${path.slice(1)}` : `${base}/api/v1${path}`;
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      let body: string | undefined = o.rawBody;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetchWithCa(url, { method: o.method ?? 'GET', headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON (an HTML page)
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
    async workspace(name = 'Test workspace', sample = false) {
      return createWorkspace(
        server.services.db,
        server.services.clock,
        { name, sample },
        server.services.secrets.webhookSecretKey,
      );
    },
    async key(request) {
      return createKey(server.services.db, server.services.clock, { name: 'test key', ...request });
    },
    async mcp(key, headers = {}, query = '') {
      const client = new Client({ name: 'tessera-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), {
        fetch: fetchWithCa,
        requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } },
      });
      await client.connect(transport);
      return client;
    },
    postMcp(credential, message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, query = '') {
      return fetchWithCa(`${base}/mcp${query}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credential}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(message),
      });
    },
    async close() {
      await server.close();
      await dispatcher.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

/** A second workspace with sample data and a key with every scope: to show ids of one never reach the other. */
export async function anotherWorkspace(t: TestServer): Promise<{ workspaceId: string; key: string }> {
  const { workspaceId } = await t.workspace('Another workspace', true);
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  return { workspaceId, key };
}
