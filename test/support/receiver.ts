// A real HTTPS receiver on loopback for webhook and callback tests: its certificate is signed by
// the run's test CA (trusted by the dispatcher through NODE_EXTRA_CA_CERTS); it keeps every request
// it gets and answers as the test tells it (status, headers, a delay).
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { testCaFiles } from './test-ca';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** Date.now() when it arrived. */
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

export interface Receiver {
  /** An address on this receiver (127.0.0.1, so only a server allowing private receivers takes it). */
  url(path?: string): string;
  readonly port: number;
  readonly received: Received[];
  /** How to answer from now on; the default answers 200 at once. */
  reply(answer: (request: Received, index: number) => Reply): void;
  /** Waits until `count` requests (to `path`, when given) have arrived. */
  waitFor(count: number, options?: { path?: string; timeoutMs?: number }): Promise<Received[]>;
  close(): Promise<void>;
}

/** The test CA's files; a clear failure when the run was started without the global set-up. */
export function testCa() {
  const dir = process.env.TESSERA_TEST_CA_DIR;
  if (!dir || !process.env.NODE_EXTRA_CA_CERTS)
    throw new Error(
      'No test CA: run the tests through vitest (its global set-up makes one and sets NODE_EXTRA_CA_CERTS).',
    );
  return testCaFiles(dir);
}

export async function startReceiver(): Promise<Receiver> {
  const ca = testCa();
  const received: Received[] = [];
  let answer: (request: Received, index: number) => Reply = () => ({ status: 200 });
  const server = createServer(
    { cert: readFileSync(ca.receiverCert), key: readFileSync(ca.receiverKey) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const request: Received = { path: req.url ?? '/', headers: req.headers, body, json, at: Date.now() };
        const index = received.push(request) - 1;
        const reply = answer(request, index);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    url: (path = '/in') => `https://127.0.0.1:${port}${path}`,
    reply(next) {
      answer = next;
    },
    async waitFor(count, options = {}) {
      // Answers as soon as they are in; the limit only ends a wait for what never comes.
      const deadline = Date.now() + (options.timeoutMs ?? 60_000);
      const matching = () => received.filter((r) => options.path === undefined || r.path === options.path);
      while (matching().length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `the receiver got ${matching().length} of ${count} requests${options.path ? ` to ${options.path}` : ''}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return matching();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
