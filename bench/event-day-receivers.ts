// The event-day row's webhook receivers: HTTPS servers answering 204 at once, each noting how far
// behind the event every message arrived (its arrival against the body's `timestamp`, the moment
// the change happened; servers and receivers share this machine's clock).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface LagReceiver {
  url: string;
  /** Milliseconds from each message's event to its arrival, in arrival order. */
  lags: number[];
  close(): Promise<void>;
}

async function startOne(cert: Buffer, key: Buffer, index: number): Promise<LagReceiver> {
  const lags: number[] = [];
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp?: string };
      if (body.timestamp) lags.push(Date.now() - Date.parse(body.timestamp));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/event-day-${index}`,
    lags,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `count` receivers with the data folder's own certificate (the servers trust it). */
export function startLagReceivers(certFile: string, keyFile: string, count: number): Promise<LagReceiver[]> {
  const cert = readFileSync(certFile);
  const key = readFileSync(keyFile);
  return Promise.all(Array.from({ length: count }, (_, i) => startOne(cert, key, i + 1)));
}
