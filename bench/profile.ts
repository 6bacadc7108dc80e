// npm run bench:profile -- [me|checkin|register|sync|deliver] — where one kind of work spends the server's
// time: the real server (`tessera serve`) runs under --cpu-prof while the bench's load generator sends
// only GET /me or only door check-ins (8 scanners, HTTPS keep-alive), or (deliver) while it delivers the
// check-ins' messages, made by an unprofiled server beforehand, to a local receiver; the profile is summed by
// place (SQLite statements, Kysely building and compiling, validation, Koa, TLS and sockets, our
// own code by folder) and by function. Writes the profile itself next to the summary for a viewer.
// BENCH_DATABASE=postgres://… serves from that PostgreSQL database.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadTls } from '../src/tls';
import { measureSeededDeliveries } from './deliveries';
import { runLoad } from './load';
import { registrationBody } from './registration';
import { seedBenchmark } from './seed';
import { serveArgs, startEnvironment } from './serve-args';
import { pullAll } from './sync';

const kinds = {
  me: 'GET /me',
  checkin: 'Door check-in',
  register: 'Registration (calls of 50 attendees)',
  sync: 'Sync (cursor pulls of 50,000 attendees, 500 a page)',
  deliver: 'Signed deliveries of checkin.created to one local receiver',
} as const;
const kind = (Object.hasOwn(kinds, process.argv[2] ?? '') ? process.argv[2] : 'me') as keyof typeof kinds;
const syncSize = 50_000;
// Enough requests that start-up (the TypeScript loader compiling, sample data) is a small share.
const requests = Number(process.env.BENCH_REQUESTS ?? 30_000);
const warmup = 1_000;
const root = resolve(import.meta.dirname, '..');
// BENCH_DATABASE=postgres://… profiles the server on that PostgreSQL database instead of SQLite.
const database = process.env.BENCH_DATABASE;
const out = resolve(process.env.BENCH_PROFILE_DIR ?? join(root, '.tmp/profile'));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** What a sample's function is, in the terms the findings use. */
function placeOf(fn: string, url: string): string {
  if (fn === '(idle)') return 'idle (waiting for the network)';
  if (fn === '(garbage collector)') return 'garbage collection';
  // better-sqlite3's own calls are native: they count to whatever calls them (db/connect.ts's rows).
  if (
    (url.includes('sqlite-driver') && fn === 'executeQuery') ||
    (url.includes('db/connect') && ['all', 'iterate', 'run'].includes(fn))
  )
    return 'SQLite statements (better-sqlite3)';
  if (url.includes('node_modules/kysely')) return 'Kysely: building and compiling queries';
  if (url.includes('node_modules/valibot')) return 'valibot: validation';
  if (/node_modules\/(koa|@koa|koa-body|delegates|raw-body)/.test(url)) return 'Koa and its router';
  if (url.includes('node_modules/pino')) return 'logging (pino)';
  if (url.includes('node_modules/jose')) return 'jose';
  if (url.includes('node_modules/tsx') || /esm\/(hooks|utils|loader)/.test(url))
    return 'TypeScript loader (tsx)';
  if (/^node:(internal\/)?(tls|net|_tls|stream|internal\/stream|_http|http)/.test(url) || fn === 'writev')
    return 'TLS, sockets and HTTP parsing';
  const own =
    /\/work\/[^/]+\/[^/]+\/((core|db|src|rest|mcp)\/[^/]+)/.exec(url) ??
    /((core|db|src|rest|mcp)\/[^/]+)/.exec(url);
  if (own) return `ours: ${own[1]}`;
  if (url.startsWith('node:') || url === '') return `Node.js: ${fn || '(program)'}`;
  return `other: ${url.replace(/^.*node_modules\//, '').split('/')[0]}`;
}

function summarise(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const { functionName, url } = nodes.get(id)!.callFrame;
    total += dt;
    const place = placeOf(functionName, url);
    places.set(place, (places.get(place) ?? 0) + dt);
    if (!place.startsWith('idle')) {
      const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules\/)?/, '')}`;
      functions.set(name, (functions.get(name) ?? 0) + dt);
    }
  });
  const busy = total - (places.get('idle (waiting for the network)') ?? 0);
  const rows = (m: Map<string, number>, n: number, of: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, t]) => `| ${name} | ${((100 * t) / of).toFixed(1)} % |`)
      .join('\n');
  return [
    `Busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s profiled.`,
    '',
    '| Where (share of busy time) | |',
    '|---|---|',
    rows(new Map([...places].filter(([p]) => !p.startsWith('idle'))), 20, busy),
    '',
    '| Function (self time, share of busy time) | |',
    '|---|---|',
    rows(functions, 20, busy),
  ].join('\n');
}

/** Whole cursor pulls of one event, one after another (the first warms up); rows a second. */
async function pullRepeatedly(
  origin: string,
  ca: string,
  headers: Record<string, string>,
  eventId: string,
  pulls: number,
): Promise<{ perSecond: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < pulls; i += 1) times.push((await pullAll(origin, ca, headers, eventId)).seconds);
  const measured = times.slice(1).sort((a, b) => a - b);
  const median = measured[Math.floor(measured.length / 2)]!;
  process.stdout.write(`Pulls of ${syncSize}: ${times.map((s) => `${s.toFixed(2)} s`).join(', ')}\n`);
  return { perSecond: syncSize / median, p99: measured.at(-1)! * 1000 };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-profile-'));
  const profileDir = join(out, `${kind}-${Date.now()}`);
  mkdirSync(profileDir, { recursive: true });
  let server: ChildProcess | undefined;
  try {
    const seeded = await seedBenchmark(dataDir, requests + warmup, kind === 'sync' ? syncSize : 1, database);
    // Deliveries go to a receiver on loopback with the server's own certificate, made before it starts.
    const tls = kind === 'deliver' ? await loadTls(dataDir) : null;
    const serve = async (port: number, flags: string[]) => {
      const child = spawn(process.execPath, serveArgs(dataDir, port, flags), {
        // From the TypeScript sources, so that the profile names our files rather than the bundle.
        env: {
          ...process.env,
          ...startEnvironment(),
          TESSERA_RATE_LIMIT: '60000000',
          TESSERA_LOG_LEVEL: 'silent',
          TESSERA_FROM_SOURCE: '1',
          ...(process.env.BENCH_DATABASE ? { TESSERA_DATABASE_URL: process.env.BENCH_DATABASE } : {}),
          ...(tls ? { TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: tls.certFile } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((ready, fail) => {
        child.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('Tessera is running') && ready());
      });
      return child;
    };
    const stop = async (child: ChildProcess) => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    };
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const profiled = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    server = await serve(port, kind === 'deliver' ? [] : profiled);
    const ca = readFileSync(join(dataDir, 'tls/localhost-cert.pem'), 'utf8');
    const origin = `https://localhost:${port}`;
    const headers = { authorization: `Bearer ${seeded.key}` };
    const ids = seeded.doorEvent.attendeeIds;
    // Registration calls carry 50 attendees each: a thirtieth as many calls keeps the run's length.
    const calls = kind === 'register' ? Math.ceil(requests / 30) : requests;
    const paths =
      kind === 'me'
        ? Array(calls + warmup).fill('/api/v1/me')
        : kind === 'register'
          ? Array(calls + warmup).fill(`/api/v1/events/${seeded.syncEvent.eventId}/attendees`)
          : ids.map((id) => `/api/v1/events/${seeded.doorEvent.eventId}/attendees/${id}/check-in`);
    const method = kind === 'me' ? 'GET' : 'POST';
    const body = kind === 'register' ? registrationBody(seeded.syncEvent.ticketTypeId) : undefined;
    const workers = kind === 'register' ? 4 : 8;
    const load =
      kind === 'sync'
        ? await pullRepeatedly(origin, ca, headers, seeded.syncEvent.eventId, 6)
        : await (async () => {
            await runLoad(origin, ca, workers, paths.slice(calls, calls + warmup), { method, headers, body });
            return runLoad(origin, ca, workers, paths.slice(0, calls), { method, headers, body });
          })();
    let figures = `${kinds[kind]}: ${load.perSecond.toFixed(0)}/s under the profiler (p99 ${load.p99.toFixed(1)} ms)`;
    if (tls) {
      // The check-ins made the messages; a profiled server delivers them.
      await stop(server);
      server = await serve(port, profiled);
      const delivered = await measureSeededDeliveries({
        origin,
        ca,
        dataDir,
        seeded,
        messages: calls,
        latencyScans: 100,
      });
      figures = `${kinds[kind]}: ${delivered.perSecond.toFixed(0)}/s under the profiler`;
    }
    await stop(server);
    server = undefined;
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile');
    process.stdout.write(
      `${figures}; the whole run, warm-up and start included.\n\n${summarise(join(profileDir, file))}\n\nProfile: ${join(profileDir, file)}\n`,
    );
  } finally {
    server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
