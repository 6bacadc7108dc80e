// The command line of the server the benches measure: the real `tessera serve` on loopback.
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Node's arguments for `tessera serve` on a data folder and port, after any of Node's own flags. */
export function serveArgs(dataDir: string, port: number, nodeFlags: string[] = []): string[] {
  return [
    ...nodeFlags,
    join(root, 'bin/tessera.mjs'),
    'serve',
    '--data',
    dataDir,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
  ];
}
