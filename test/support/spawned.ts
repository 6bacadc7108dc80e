// The real `tessera` command in its own process: one-off CLI calls answered in JSON, and
// `tessera serve` started on a data folder (waiting for its banner), for tests that kill it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { migrateToLatest, openDatabase } from '../../db/connect';
import { insertTicketType } from './sales';
import type { ApiAnswer } from './server';
import { databaseFor } from './test-store';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tessera.mjs');
const childEnv = { ...process.env, TESSERA_LOG_LEVEL: 'silent', TESSERA_RATE_LIMIT: '1000000' };

export interface Spawned {
  child: ChildProcess;
  origin: string;
  agent: Agent;
  /** What it printed up to its "running" banner. */
  banner: string;
}

/** Every process started here, so a suite can end them all. */
export const children = new Set<ChildProcess>();

export function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** On PostgreSQL, the database of the data folder a command names (--data or TESSERA_DATA). */
function databaseOfArgs(args: string[], env: Record<string, string>): Promise<string | undefined> {
  const at = args.indexOf('--data');
  const dataDir = at >= 0 ? args[at + 1] : env.TESSERA_DATA;
  return dataDir ? databaseFor(dataDir) : Promise.resolve(undefined);
}

/**
 * Runs one `tessera` command: its exit status and what it printed (killed after `timeoutMs`, a
 * guard against a hang: a loaded machine runs a big import four times slower than a quiet one).
 */
export async function runTessera(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<Run> {
  const database = await databaseOfArgs(args, env);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        env: { ...childEnv, ...(database ? { TESSERA_DATABASE_URL: database } : {}), ...env },
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs one `tessera` command that must succeed, and answers its JSON output. */
export async function tessera(args: string[], env: Record<string, string> = {}): Promise<any> {
  const run = await runTessera(args, env);
  if (run.code !== 0) throw new Error(`tessera ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Starts `tessera serve` on the data folder and waits for its "running" banner. */
export async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Spawned> {
  const database = await databaseFor(dataDir);
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'],
    {
      env: { ...childEnv, ...(database ? { TESSERA_DATABASE_URL: database } : {}), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    // A start takes a second or two; four times that and more on a loaded machine.
    const timer = setTimeout(() => fail(new Error('tessera serve did not start within 120 s')), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (alive(child)) child.kill('SIGKILL');
      reject(new Error(`${error.message}\nstdout: ${out}\nstderr: ${err}`));
    };
    child.stderr!.on('data', (chunk) => {
      err += String(chunk);
    });
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const rest = /REST API:\s+(https:\/\/\S+)\/api\/v1/.exec(out);
      if (!out.includes('Tessera is running') || !rest) return;
      clearTimeout(timer);
      const ca = readFileSync(join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8');
      const agent = new Agent({ connect: { ca, servername: 'localhost' } });
      resolve({ child, origin: rest[1]!, agent, banner: out });
    });
    child.once('exit', (code, signal) => fail(new Error(`tessera serve exited (${code ?? signal})`)));
  });
}

export function exited(child: ChildProcess): Promise<void> {
  if (!alive(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Ends every process started here. */
export async function endAll(): Promise<void> {
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
  await Promise.all([...children].map(exited));
}

/** Calls the REST API of a spawned server. */
export async function call(
  s: Spawned,
  path: string,
  o: { method?: string; key: string; body?: unknown; headers?: Record<string, string> },
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${o.key}`, ...(o.headers ?? {}) };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await undiciFetch(`${s.origin}/api/v1${path}`, {
    method: o.method ?? 'GET',
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    dispatcher: s.agent,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers as unknown as Headers, body };
}

/**
 * A burst of registrations through a spawned service: `people` attendees in calls of `perRequest`,
 * each answered 201 before the next is sent (every registration committed); throws otherwise.
 */
export async function registerBurst(
  s: Spawned,
  key: string,
  target: { eventId: string; ticketTypeId: string },
  burst: { people: number; perRequest: number; lastName: string; emailDomain: string; emailTag: string },
): Promise<void> {
  for (let i = 0; i < burst.people; i += burst.perRequest) {
    const attendees = Array.from({ length: burst.perRequest }, (_, j) => ({
      ticketTypeId: target.ticketTypeId,
      firstName: 'Crash',
      lastName: `${burst.lastName} ${i + j}`,
      email: `${burst.emailTag}.${i + j}@${burst.emailDomain}`,
    }));
    const res = await call(s, `/events/${target.eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees },
    });
    if (res.status !== 201)
      throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

/** The data folder's database (its SQLite file, or its PostgreSQL database under test:postgres). */
export async function openDataDir(dataDir: string) {
  return openDatabase((await databaseFor(dataDir)) ?? join(dataDir, 'tessera.db'));
}

/** Adds an unlimited free ticket type through a connection of its own (the server keeps running). */
export async function addUnlimitedTicketType(dataDir: string, eventId: string): Promise<string> {
  const { db, close } = await openDataDir(dataDir);
  try {
    await migrateToLatest(db);
    return await insertTicketType(db, eventId);
  } finally {
    await close();
  }
}

/** A workspace (with sample data when asked) and a key with every scope that never expires, made with the CLI. */
export async function workspaceWithKey(
  dataDir: string,
  name: string,
  env: Record<string, string> = {},
  options: { sample?: boolean } = {},
): Promise<{ workspaceId: string; key: string }> {
  const sample = options.sample ? ['--sample'] : [];
  const { workspaceId } = await tessera(
    ['workspace', 'create', '--name', name, ...sample, '--data', dataDir],
    env,
  );
  const made = await tessera(
    [
      'key',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'k',
      '--preset',
      'everything',
      '--expires',
      'never',
      '--data',
      dataDir,
    ],
    env,
  );
  return { workspaceId, key: made.key as string };
}
