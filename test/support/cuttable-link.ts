// A TCP link to a test server that a test can cut, as a network going away: while cut, its open
// connections are destroyed and new ones are reset at once. Browser tests of offline behaviour use
// it beside Chromium's offline emulation, which is the page's only: a request passing through a
// service worker, or made by a page reloaded before it is told it is offline, still reached the
// server (a flaky failure in CI). Bytes pass through untouched, TLS included.
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export interface CuttableLink {
  /** The server's origin with the link's port: its pages and API through the link. */
  origin: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableLink(serverOrigin: string): Promise<CuttableLink> {
  const target = new URL(serverOrigin);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const open = new Set<Socket>();
  let isCut = false;
  const listener = createServer((client) => {
    if (isCut) return void client.resetAndDestroy();
    const upstream = tcpConnect(Number(target.port), host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => listener.listen(0, host, resolve));
  const address = listener.address();
  if (!address || typeof address === 'string') throw new Error('the link has no port');
  return {
    origin: `${target.protocol}//${target.hostname}:${address.port}`,
    cut() {
      isCut = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        listener.close(() => resolve());
      }),
  };
}
