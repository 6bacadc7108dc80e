// The processes a bench runs and where its figures go: the real `tessera serve` (with the flags of
// `npm start`), stopped at the end, and a table written between named markers of a docs page.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { serveArgs, startEnvironment } from './serve-args';

/** Resolves when the child says it is ready, on IPC or in a line of its output. */
export function waitFor(child: ChildProcess, ready: (line: string) => boolean): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    child.once('exit', (code) => reject(new Error(`process exited with ${code}`)));
    child.on('message', (m) => m === 'ready' && resolvePromise());
    child.stdout?.on('data', (d: Buffer) => ready(d.toString()) && resolvePromise());
  });
}

/** The deployment's key of the bench's data folder: every process started on it gives the same. */
export const benchSecretKey = 'benchmark-master-key-0123456789abcdef';

/** `tessera serve` on loopback, quiet and without a rate limit in the way, once it is running. */
export async function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<ChildProcess> {
  const server = spawn(process.execPath, serveArgs(dataDir, port, nodeFlags), {
    env: {
      ...process.env,
      ...startEnvironment(),
      NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? '',
      TESSERA_RATE_LIMIT: '60000000',
      TESSERA_LOG_LEVEL: 'silent',
      TESSERA_SECRET_KEY: benchSecretKey,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitFor(server, (line) => line.includes('Tessera is running'));
  return server;
}

/** Ends the processes (SIGTERM) and waits for each to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      return exited;
    }),
  );
}

/** Puts `text` between the page's markers for `name`; the findings around them are kept. */
export function writeBetweenMarkers(
  file: string,
  name: string,
  text: string,
  command = 'npm run bench',
): void {
  const page = readFileSync(file, 'utf8');
  const start = `<!-- ${name}: written by ${command} -->`;
  const end = `<!-- end of ${name} -->`;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no markers for ${name}.`);
  writeFileSync(file, `${page.slice(0, from + start.length)}\n${text}\n${page.slice(to)}`);
}
