// The command line of the server the benches measure: the real `tessera serve` on loopback, with
// the Node.js flags `npm start` gives it (read from package.json, so the two never differ).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The flags between `node` and the command in package.json's start script. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('bin/tessera.mjs'));
}

/** Node's arguments for `tessera serve` on a data folder and port, after any of Node's own flags. */
export function serveArgs(dataDir: string, port: number, nodeFlags: string[] = []): string[] {
  return [
    ...startFlags(),
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
