// npm run bench -- --database postgres://…: the sizing rows of docs/deployment.md, from one run.
// The same seeded data on SQLite and on the PostgreSQL database given, each served by the real
// `tessera serve`: door check-in (8 scanners), the cursor sync of 50,000 attendees and
// registration on each store; then door check-in through two processes on the PostgreSQL
// database, the scanners split between them as a proxy would. The table goes into
// docs/benchmarks.md between its markers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadTls } from '../src/tls';
import { clusterCpuReader, mainThreadCpuSeconds, processCpuSeconds } from './cpu-time';
import { type LoadResult, runLoad } from './load';
import { startServer, stopAll, writeBetweenMarkers } from './processes';
import { attendeesPerCall, measureRegistration, type RegistrationResult } from './registration';
import { type Seeded, seedBenchmark } from './seed';
import { pullAll } from './sync';

interface Sizes {
  checkIns: number;
  syncSize: number;
  scanners: number;
}

interface StoreFigures {
  checkIn: LoadResult & { cpu: Cpu };
  syncSeconds: number;
  registration: RegistrationResult;
  /** CPU seconds during the sync's pull and during the registrations. */
  syncCpu: Cpu;
  registrationCpu: Cpu;
}

const warmup = 300;
const registrationCalls = 400;

/** A data folder's certificate, which its server answers with. */
const certificateOf = (dir: string) => readFileSync(join(dir, 'tls/localhost-cert.pem'), 'utf8');

function checkInPaths(seeded: Seeded, ids: string[]): string[] {
  return ids.map((id) => `/api/v1/events/${seeded.doorEvent.eventId}/attendees/${id}/check-in`);
}

/** What is metered (cpu-time.ts): the server's main thread, the whole server process, the cluster. */
type Metered = 'serverThread' | 'server' | 'cluster';
/** Readers of CPU seconds used so far, each where it can be read. */
type Meters = Partial<Record<Metered, () => number>>;
/** CPU seconds used during a run, by what was metered. */
type Cpu = Partial<Record<Metered, number>>;

/** Meters of a server process, and of the cluster it serves from when that is on this machine. */
function metersOf(pid: number, cluster: (() => number) | null = null): Meters {
  return {
    serverThread: () => mainThreadCpuSeconds(pid),
    server: () => processCpuSeconds(pid),
    ...(cluster ? { cluster } : {}),
  };
}

/** What `work` answers, with the CPU seconds each meter counted while it ran. */
async function metered<T>(meters: Meters, work: () => Promise<T>): Promise<[T, Cpu]> {
  const entries = Object.entries(meters) as [Metered, () => number][];
  const before = entries.map(([, read]) => read());
  const result = await work();
  return [result, Object.fromEntries(entries.map(([name, read], i) => [name, read() - before[i]!]))];
}

/**
 * Check-in of fresh attendees (each scan a welcome), after a warm-up on others; `meters` are read
 * before and after the measured scans (their CPU seconds in `cpuSeconds`, in the same order).
 */
async function checkInLoad(
  origins: string[],
  ca: string,
  seeded: Seeded,
  ids: { warm: string[]; measured: string[] },
  scanners: number,
  meters: Meters = {},
): Promise<LoadResult & { cpu: Cpu }> {
  const headers = { authorization: `Bearer ${seeded.key}` };
  await runLoad(origins, ca, scanners, checkInPaths(seeded, ids.warm), { method: 'POST', headers });
  const [load, cpu] = await metered(meters, () =>
    runLoad(origins, ca, scanners, checkInPaths(seeded, ids.measured), {
      method: 'POST',
      headers,
      ok: (status, body) => status === 200 && body.includes('"result":"welcome"'),
    }),
  );
  return { ...load, cpu };
}

async function measureStore(
  origin: string,
  ca: string,
  seeded: Seeded,
  sizes: Sizes,
  meters: Meters = {},
): Promise<StoreFigures> {
  const ids = seeded.doorEvent.attendeeIds;
  const checkIn = await checkInLoad(
    [origin],
    ca,
    seeded,
    { warm: ids.slice(2 * sizes.checkIns), measured: ids.slice(0, sizes.checkIns) },
    sizes.scanners,
    meters,
  );
  const auth = { authorization: `Bearer ${seeded.key}` };
  const [pulled, syncCpu] = await metered(meters, () => pullAll(origin, ca, auth, seeded.syncEvent.eventId));
  if (pulled.rows !== sizes.syncSize) throw new Error(`sync pulled ${pulled.rows} of ${sizes.syncSize}`);
  const [registration, registrationCpu] = await metered(meters, () =>
    measureRegistration({
      origin,
      ca,
      key: seeded.key,
      eventId: seeded.syncEvent.eventId,
      ticketTypeId: seeded.syncEvent.ticketTypeId,
      calls: registrationCalls,
    }),
  );
  return { checkIn, syncSeconds: pulled.seconds, registration, syncCpu, registrationCpu };
}

/**
 * What more cores buy at the door, projected from what one scan cost the server and PostgreSQL in
 * CPU during the one-process run (the load generator, on this machine too, is left out: a
 * deployment's scanners are elsewhere): cores split between server processes and PostgreSQL as those
 * costs say serve about cores ÷ (both costs) scans a second, as long as the door rows do not queue
 * (docs/deployment.md, a door with a capacity).
 */
function coresTable(
  scans: number,
  serverSeconds: number,
  clusterSeconds: number,
  one: number,
  two: number,
): string {
  const serverMs = (1000 * serverSeconds) / scans;
  const clusterMs = (1000 * clusterSeconds) / scans;
  const perCore = 1000 / (serverMs + clusterMs);
  const projected = (cores: number) => {
    const servers = Math.max(1, Math.round((cores * serverMs) / (serverMs + clusterMs)));
    return `| ${cores} cores (projected) | ${servers} | ${cores - servers} cores | about ${(Math.round((cores * perCore) / 50) * 50).toLocaleString('en')}/s |`;
  };
  return [
    `What more cores buy (the sizing table of docs/deployment.md): during the one-process scans above each scan took ${serverMs.toFixed(2)} ms of the server's CPU and ${clusterMs.toFixed(2)} ms of PostgreSQL's (its postmaster and every process it started), about ${perCore.toFixed(0)} scans a second for each core the two are given, split as the costs say.`,
    '',
    '| Machine | Server processes | PostgreSQL | Door scans a second |',
    '|---|---|---|---|',
    `| This one, 2 cores shared with the load generator (measured) | 1 | the same cores | ${one.toFixed(0)}/s |`,
    `| This one (measured) | 2 | the same cores | ${two.toFixed(0)}/s |`,
    projected(4),
    projected(8),
    projected(16),
  ].join('\n');
}

/**
 * What bounds registration and the sync on each store, from the CPU they used: a registration's
 * milliseconds of the server's main thread (a process runs its JavaScript on one), of the whole
 * server process and of PostgreSQL, and what those allow; the sync's share of its time each side
 * was busy (one client, page after page: what is not busy is the wire and the client).
 */
function registrationAndSyncBounds(lite: StoreFigures, pg: StoreFigures): string {
  const perCall = (seconds: number | undefined) => (1000 * (seconds ?? 0)) / registrationCalls;
  const attendees = (callsPerSecond: number) =>
    (Math.round((callsPerSecond * attendeesPerCall) / 50) * 50).toLocaleString('en');
  const costs = (cpu: Cpu) => ({
    thread: perCall(cpu.serverThread),
    server: perCall(cpu.server),
    cluster: perCall(cpu.cluster),
  });
  const onLite = costs(lite.registrationCpu);
  const onPg = costs(pg.registrationCpu);
  // The server's thread, or the machine's two cores shared by the server and PostgreSQL.
  const pgCores = 2000 / (onPg.server + onPg.cluster);
  const busy = (seconds: number | undefined, of: number) => `${((100 * (seconds ?? 0)) / of).toFixed(0)} %`;
  return [
    `What bounds registration and the sync (CPU from /proc during those runs): a registration of ${attendeesPerCall} took ${onLite.thread.toFixed(2)} ms of the SQLite server's main thread (${onLite.server.toFixed(2)} ms of the whole process), which allows about ${attendees(1000 / onLite.thread)} attendees a second (measured ${lite.registration.attendeesPerSecond.toFixed(0)});`,
    `on PostgreSQL ${onPg.thread.toFixed(2)} ms of the server's main thread (${onPg.server.toFixed(2)} ms of the process) and ${onPg.cluster.toFixed(2)} ms of PostgreSQL's: the thread allows about ${attendees(1000 / onPg.thread)}, this machine's two cores shared by both about ${attendees(Math.min(pgCores, 1000 / onPg.thread))} (measured ${pg.registration.attendeesPerSecond.toFixed(0)}).`,
    `The sync's one client pulls page after page: during its ${lite.syncSeconds.toFixed(2)} s on SQLite the server's main thread was busy ${busy(lite.syncCpu.serverThread, lite.syncSeconds)} of the time; during its ${pg.syncSeconds.toFixed(2)} s on PostgreSQL the server's main thread ${busy(pg.syncCpu.serverThread, pg.syncSeconds)} and PostgreSQL ${busy(pg.syncCpu.cluster, pg.syncSeconds)} (the rest is the wire, the client reading each page, and waits).`,
  ].join(' ');
}

export async function benchStores(root: string, database: string, sizes: Sizes): Promise<void> {
  const dirs = ['lite', 'pg'].map((name) => mkdtempSync(join(tmpdir(), `tessera-bench-${name}-`)));
  const [liteDir, pgDir] = dirs as [string, string];
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const origin = (offset: number) => `https://localhost:${port + offset}`;
  try {
    process.stdout.write(`Seeding ${2 * sizes.checkIns} + ${sizes.syncSize} attendees on each store…\n`);
    // Door attendees for one run on each process count, and a warm-up share.
    const doorAttendees = 2 * sizes.checkIns + warmup;
    const lite = await seedBenchmark(liteDir, doorAttendees, sizes.syncSize);
    const pg = await seedBenchmark(pgDir, doorAttendees, sizes.syncSize, database);
    for (const dir of dirs) await loadTls(dir);

    process.stdout.write('SQLite, one process…\n');
    const liteServer = await startServer(liteDir, port, {});
    const onLite = await measureStore(
      origin(0),
      certificateOf(liteDir),
      lite,
      sizes,
      metersOf(liteServer.pid!),
    ).finally(() => stopAll([liteServer]));

    const pgEnv = { TESSERA_DATABASE_URL: database };
    const first = await startServer(pgDir, port + 1, pgEnv);
    // The server's and the cluster's CPU during the one-process scans: what a scan costs each side.
    const cluster = await clusterCpuReader(database);
    let onPg: StoreFigures;
    let two: LoadResult;
    try {
      process.stdout.write('PostgreSQL, one process…\n');
      onPg = await measureStore(origin(1), certificateOf(pgDir), pg, sizes, metersOf(first.pid!, cluster));
      process.stdout.write('PostgreSQL, two processes…\n');
      // The same data folder, as the processes of a deployment share one (docs/deployment.md).
      const second = await startServer(pgDir, port + 2, pgEnv);
      try {
        const ids = pg.doorEvent.attendeeIds;
        two = await checkInLoad(
          [origin(1), origin(2)],
          certificateOf(pgDir),
          pg,
          { warm: ids.slice(2 * sizes.checkIns), measured: ids.slice(sizes.checkIns, 2 * sizes.checkIns) },
          sizes.scanners,
        );
      } finally {
        await stopAll([second]);
      }
    } finally {
      await stopAll([first]);
    }

    const failures = [onLite.checkIn, onPg.checkIn, two, onLite.registration, onPg.registration].reduce(
      (n, r) => n + r.failures,
      0,
    );
    if (failures > 0) throw new Error(`${failures} calls failed`);
    const row = (name: string, f: StoreFigures) =>
      `| ${name} | ${f.checkIn.perSecond.toFixed(0)}/s | ${f.checkIn.p50.toFixed(1)} ms | ${f.checkIn.p99.toFixed(1)} ms | ${f.syncSeconds.toFixed(2)} s | ${f.registration.attendeesPerSecond.toFixed(0)}/s | ${f.registration.p99.toFixed(1)} ms |`;
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node.js ${process.version}`;
    let table = [
      `Latest run of \`npm run bench -- --database postgres://…\` (${new Date().toISOString().slice(0, 10)}). Machine: ${machine}; PostgreSQL, the servers and the load generator all run on it.`,
      '',
      `| Store | Check-in (${sizes.scanners} scanners) | p50 | p99 | Sync of ${sizes.syncSize} (500 a page) | Registration (${attendeesPerCall} a call, 4 clients) | p99 |`,
      '|---|---|---|---|---|---|---|',
      row('SQLite, one process', onLite),
      row('PostgreSQL, one process', onPg),
      `| PostgreSQL, two processes | ${two.perSecond.toFixed(0)}/s | ${two.p50.toFixed(1)} ms | ${two.p99.toFixed(1)} ms | | | |`,
    ].join('\n');
    const verdict = (met: boolean) => (met ? 'met' : '**missed**');
    const checkInShare = onPg.checkIn.perSecond / onLite.checkIn.perSecond;
    const twoOverOne = two.perSecond / onPg.checkIn.perSecond;
    const registrationShare = onPg.registration.attendeesPerSecond / onLite.registration.attendeesPerSecond;
    const syncOver = onPg.syncSeconds / onLite.syncSeconds;
    const targets = [
      '',
      'Targets (issue 29 item 4):',
      `- PostgreSQL check-in in one process ≥ 0.5 of SQLite's: ${verdict(checkInShare >= 0.5)} (${checkInShare.toFixed(2)})`,
      `- two processes ≥ 1.6 × one: ${verdict(twoOverOne >= 1.6)} (${twoOverOne.toFixed(2)})`,
      `- registration ≥ 0.8 of SQLite's: ${verdict(registrationShare >= 0.8)} (${registrationShare.toFixed(2)})`,
      `- sync of ${sizes.syncSize} within 1.2 × SQLite's time: ${verdict(syncOver <= 1.2)} (${syncOver.toFixed(2)})`,
    ].join('\n');
    table += `\n${targets}`;
    const { server: serverSeconds, cluster: clusterSeconds } = onPg.checkIn.cpu;
    if (serverSeconds !== undefined && clusterSeconds !== undefined) {
      table += `\n\n${coresTable(sizes.checkIns, serverSeconds, clusterSeconds, onPg.checkIn.perSecond, two.perSecond)}`;
      table += `\n\n${registrationAndSyncBounds(onLite, onPg)}`;
    }
    process.stdout.write(`\n${table}\n`);
    if (sizes.checkIns === 10_000 && sizes.syncSize === 50_000)
      writeBetweenMarkers(join(root, 'docs/benchmarks.md'), 'stores', table);
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
