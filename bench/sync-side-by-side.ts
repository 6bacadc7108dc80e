// npm run bench:sync-side-by-side -- TREE_A TREE_B [--rounds 8] [--database throwaway]: the cursor pull
// of 50,000 attendees (500 a page) of two versions of the code, in the steady state. Both trees'
// servers run at once, each on its own data folder (and database) seeded by its own code, and take
// turns pulling (A B, then B A), after one pull each to warm up; each pull's time and CPU seconds (the
// server's, all its threads and its main thread; the cluster's on PostgreSQL) are taken, and their
// medians compared. bench:compare starts a server afresh for every round, so its sync figures include
// the start's warming (the compiler's threads at work); this says what a page costs once warm, which
// is what a client syncing all day meets.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../scripts/postgres-cluster.mjs';
import { loadTls } from '../src/tls';
import { type Cluster, databaseOf, settle } from './cluster-databases';
import { clusterCpuReader, mainThreadCpuSeconds, processCpuSeconds } from './cpu-time';
import { stopAll } from './processes';
import type { Seeded } from './seed';
import { pullAll } from './sync';

const attendees = 50_000;
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '8' }, database: { type: 'string' } },
});
const rounds = Number(values.rounds);
if (positionals.length !== 2 || !(rounds > 0) || (values.database ?? 'throwaway') !== 'throwaway')
  throw new Error(
    'usage: npm run bench:sync-side-by-side -- TREE_A TREE_B [--rounds N] [--database throwaway]',
  );
const trees = positionals.map((tree) => resolve(tree));

interface Side {
  tree: string;
  dataDir: string;
  server: ChildProcess;
  origin: string;
  ca: string;
  seeded: Seeded;
  pulls: { seconds: number; cpu: number; mainThread: number; cluster: number }[];
}

/** Seeds a folder (and database) with the tree's own code and starts the tree's `tessera serve` on it. */
async function startSide(tree: string, index: number, cluster: Cluster | null): Promise<Side> {
  const { seedBenchmark } = (await import(join(tree, 'bench/seed.ts'))) as typeof import('./seed');
  // Each tree's own bench/processes.ts, so its server is started the way that version starts it.
  const { startServer } = (await import(join(tree, 'bench/processes.ts'))) as typeof import('./processes');
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-sync-sides-'));
  const database = cluster ? await databaseOf(cluster, `tessera_side_${index}`) : undefined;
  const seeded = await seedBenchmark(dataDir, 20, attendees, database?.url);
  if (database) await settle(database.url);
  await loadTls(dataDir);
  const port = 19_000 + index * 400 + Math.floor(Math.random() * 400);
  const server = await startServer(
    dataDir,
    port,
    database ? { TESSERA_DATABASE_URL: database.socketUrl } : {},
  );
  const ca = readFileSync(join(dataDir, 'tls/localhost-cert.pem'), 'utf8');
  return { tree, dataDir, server, origin: `https://localhost:${port}`, ca, seeded, pulls: [] };
}

async function pull(side: Side, clusterCpu: (() => number) | null): Promise<Side['pulls'][number]> {
  const pid = side.server.pid!;
  const before = [processCpuSeconds(pid), mainThreadCpuSeconds(pid), clusterCpu?.() ?? 0];
  const headers = { authorization: `Bearer ${side.seeded.key}` };
  const { seconds } = await pullAll(side.origin, side.ca, headers, side.seeded.syncEvent.eventId);
  return {
    seconds,
    cpu: processCpuSeconds(pid) - before[0]!,
    mainThread: mainThreadCpuSeconds(pid) - before[1]!,
    cluster: (clusterCpu?.() ?? 0) - before[2]!,
  };
}

const median = (figures: number[]) => [...figures].sort((a, b) => a - b)[Math.floor(figures.length / 2)]!;

function report(a: Side, b: Side, postgres: boolean): void {
  const figures: [string, keyof Side['pulls'][number]][] = [
    ['seconds a pull', 'seconds'],
    ['server CPU seconds a pull (all threads)', 'cpu'],
    ["server CPU seconds a pull (JavaScript's thread)", 'mainThread'],
    ...(postgres ? [['PostgreSQL CPU seconds a pull', 'cluster'] as [string, 'cluster']] : []),
  ];
  process.stdout.write(
    `\nCursor pull of ${attendees.toLocaleString('en')} attendees (500 a page), ${postgres ? 'PostgreSQL' : 'SQLite'}, ` +
      `both servers warm, medians of ${a.pulls.length} pulls each (lower is faster):\n`,
  );
  for (const [label, key] of figures) {
    const [ofA, ofB] = [a, b].map((side) => median(side.pulls.map((p) => p[key])));
    process.stdout.write(
      `${label}: A ${ofA!.toFixed(3)}, B ${ofB!.toFixed(3)}, B against A ${(((ofB! - ofA!) / ofA!) * 100).toFixed(1)} %\n`,
    );
  }
  process.stdout.write(`A ${a.tree}\nB ${b.tree}\n`);
}

async function main(): Promise<void> {
  const cluster = values.database ? await startCluster({ durable: true }) : null;
  const sides: Side[] = [];
  try {
    for (const [index, tree] of trees.entries()) sides.push(await startSide(tree, index, cluster));
    const clusterCpu = cluster ? await clusterCpuReader(cluster.url) : null;
    for (const side of sides) await pull(side, clusterCpu); // warming
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const figures = await pull(side, clusterCpu);
        side.pulls.push(figures);
        process.stdout.write(
          `round ${round + 1} ${side === sides[0] ? 'A' : 'B'}: ${figures.seconds.toFixed(3)} s, CPU ${figures.cpu.toFixed(3)} s\n`,
        );
      }
    }
    report(sides[0]!, sides[1]!, cluster !== null);
  } finally {
    for (const side of sides) {
      await stopAll([side.server]);
      rmSync(side.dataDir, { recursive: true, force: true });
    }
    cluster?.stop();
  }
}

await main();
