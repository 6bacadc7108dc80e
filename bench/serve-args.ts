// The command line of the server the benches measure: the real `tessera serve` on loopback, with
// the Node.js flags and environment `npm start` gives it (read from package.json, so the two never
// differ).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** package.json's start script, split into words: `NAME=value …  node  flags…  bin/tessera.mjs serve`. */
function startWords(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/);
}

/** The flags between `node` and the command in package.json's start script. */
export function startFlags(): string[] {
  const words = startWords();
  return words.slice(words.indexOf('node') + 1, words.indexOf('bin/tessera.mjs'));
}

/** The environment the start script sets before `node` (glibc's malloc settings). */
export function startEnvironment(): Record<string, string> {
  const words = startWords();
  const assignments = words.slice(0, words.indexOf('node'));
  return Object.fromEntries(
    assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
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
