// npm run bench:compare -- TREE_A TREE_B [--kind checkin|sync|me|register|deliveries] [--rounds 6]
// [--database throwaway] [--apart]: two versions of the code measured against each other on this
// machine, which is shared and noisy. Each tree (a worktree, with node_modules linked in) runs its own
// `tessera serve` on one data folder (or one throwaway PostgreSQL cluster, through its Unix socket as
// the stores run uses it); the rounds take turns (A then B, then B then A), each server started
// afresh and warmed up, and the medians are compared. The same tree given twice shows the noise
// floor of the hour: a difference under it is not a result. --apart seeds a data folder (and a
// database) for each tree with its own code, as a tree that adds a migration needs: the other would
// refuse the database it left. The "interleaved pairs" of docs/benchmarks.md are made this way.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { startCluster } from '../scripts/postgres-cluster.mjs';
import { loadTls } from '../src/tls';
import { type Cluster, databaseOf, settle } from './cluster-databases';
import { measureSeededDeliveries } from './deliveries';
import { runLoad } from './load';
import { measureRegistration } from './registration';
import type { Seeded } from './seed';
import { pullAll } from './sync';

/** Messages the deliveries kind sends each round, and the scans of its latency part. */
const deliveryMessages = 5_000;
const deliveryLatencyScans = 100;

const kinds = {
  checkin: 'door check-ins a second (8 scanners, a fresh attendee each)',
  sync: 'seconds for a cursor pull of 50,000 attendees (500 a page)',
  me: 'GET /me a second (8 clients)',
  register: 'attendees registered a second (calls of 50, 4 clients)',
  deliveries: `signed deliveries a second (${deliveryMessages.toLocaleString('en')} checkin.created to one local endpoint)`,
} as const;
type Kind = keyof typeof kinds;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    kind: { type: 'string', default: 'checkin' },
    rounds: { type: 'string', default: '6' },
    database: { type: 'string' },
    apart: { type: 'boolean', default: false },
  },
});
const usage =
  'usage: npm run bench:compare -- TREE_A TREE_B [--kind checkin|sync|me|register|deliveries] [--rounds N] [--database throwaway] [--apart]';
const kind = values.kind as Kind;
const rounds = Number(values.rounds);
const database = values.database;
if (positionals.length !== 2 || !Object.hasOwn(kinds, kind) || !(rounds > 0)) throw new Error(usage);
if (database !== undefined && database !== 'throwaway') throw new Error(usage);
// The deliveries kind puts the outbox's messages back as new through the SQLite file.
if (kind === 'deliveries' && database !== undefined) throw new Error('--kind deliveries runs on SQLite only');
const [treeA, treeB] = positionals.map((tree) => resolve(tree)) as [string, string];

const scanners = 8;
const scansPerRound = 3_000;
const warmScans = 150;
const meCalls = 10_000;
const registrationCalls = 300;

/** A server of `tree` on the folder (and database), for one measurement. */
interface TreeServer {
  origin: string;
  stop(): Promise<void>;
}

async function serve(tree: string, dataDir: string, database: string | undefined): Promise<TreeServer> {
  // Each tree's own bench/processes.ts, so its server is started the way that version starts it.
  const { startServer, stopAll } = await import(join(tree, 'bench/processes.ts'));
  const port = 19_000 + Math.floor(Math.random() * 900);
  const deliveries =
    kind === 'deliveries'
      ? // The receiver is on loopback, with the server's own certificate.
        { TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: join(dataDir, 'tls/localhost-cert.pem') }
      : {};
  const server = await startServer(dataDir, port, {
    ...deliveries,
    ...(database ? { TESSERA_DATABASE_URL: database } : {}),
  });
  return { origin: `https://localhost:${port}`, stop: () => stopAll([server]) };
}

/** Hands out attendees no round has scanned, so every measured scan is a welcome. */
function freshScans(seeded: Seeded): (count: number) => string[] {
  const { eventId, attendeeIds } = seeded.doorEvent;
  let next = 0;
  return (count) => {
    const ids = attendeeIds.slice(next, next + count);
    next += count;
    if (ids.length < count) throw new Error('the seeded door event has run out of fresh attendees');
    return ids.map((id) => `/api/v1/events/${eventId}/attendees/${id}/check-in`);
  };
}

async function measure(server: TreeServer, place: Place) {
  const { ca, seeded, scans } = place;
  const headers = { authorization: `Bearer ${seeded.key}` };
  if (kind === 'deliveries') return [await measureDeliveryRound(server, place)];
  if (kind === 'sync') {
    await pullAll(server.origin, ca, headers, seeded.syncEvent.eventId);
    const pulls = [];
    for (let i = 0; i < 2; i++)
      pulls.push((await pullAll(server.origin, ca, headers, seeded.syncEvent.eventId)).seconds);
    return pulls;
  }
  if (kind === 'register') {
    const { eventId, ticketTypeId } = seeded.syncEvent;
    const registration = { origin: server.origin, ca, key: seeded.key, eventId, ticketTypeId };
    await measureRegistration({ ...registration, calls: 40 });
    return [(await measureRegistration({ ...registration, calls: registrationCalls })).attendeesPerSecond];
  }
  if (kind === 'me') {
    const paths = (n: number) => Array.from({ length: n }, () => '/api/v1/me');
    await runLoad(server.origin, ca, scanners, paths(1_000), { method: 'GET', headers });
    return [
      (await runLoad(server.origin, ca, scanners, paths(meCalls), { method: 'GET', headers })).perSecond,
    ];
  }
  await runLoad(server.origin, ca, scanners, scans(warmScans), { method: 'POST', headers });
  const load = await runLoad(server.origin, ca, scanners, scans(scansPerRound), {
    method: 'POST',
    headers,
    ok: (status, body) => status === 200 && body.includes('"result":"welcome"'),
  });
  if (load.failures > 0) throw new Error(`${load.failures} scans did not answer welcome`);
  return [load.perSecond];
}

/**
 * One round of deliveries: the first round of a place checks people in to fill the outbox (no
 * endpoint takes those messages then); each round makes an endpoint, has the latest messages sent to
 * it again (bench/deliveries.ts) and removes it, so the next round's server finds none left over.
 */
async function measureDeliveryRound(server: TreeServer, place: Place): Promise<number> {
  const headers = { authorization: `Bearer ${place.seeded.key}` };
  if (!place.primed) {
    const filled = await runLoad(server.origin, place.ca, scanners, place.scans(deliveryMessages), {
      method: 'POST',
      headers,
    });
    if (filled.failures > 0) throw new Error(`${filled.failures} scans failed`);
    place.primed = true;
  }
  const figures = await measureSeededDeliveries({
    origin: server.origin,
    ca: place.ca,
    dataDir: place.dataDir,
    seeded: place.seeded,
    messages: deliveryMessages,
    latencyScans: deliveryLatencyScans,
  });
  const agent = new Agent({ connect: { ca: place.ca, servername: 'localhost' } });
  try {
    const listed = await request(`${server.origin}/api/v1/webhooks`, { headers, dispatcher: agent });
    const { data } = (await listed.body.json()) as { data: { webhookId: string }[] };
    for (const { webhookId } of data) {
      const removed = await request(`${server.origin}/api/v1/webhooks/${webhookId}`, {
        method: 'DELETE',
        headers,
        dispatcher: agent,
      });
      await removed.body.dump();
    }
  } finally {
    await agent.close();
  }
  return figures.perSecond;
}

const median = (figures: number[]) => {
  const sorted = [...figures].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Where a tree's servers run: a data folder seeded for the comparison (and its database, if any). */
interface Place {
  dataDir: string;
  database: string | undefined;
  seeded: Seeded;
  ca: string;
  scans: (count: number) => string[];
  /** The deliveries kind: whether the outbox holds the check-ins it sends again. */
  primed?: boolean;
}

async function seededPlace(cluster: Cluster | null, name: string, tree: string): Promise<Place> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-compare-'));
  const urls = cluster ? await databaseOf(cluster, name) : undefined;
  const doorAttendees =
    kind === 'checkin'
      ? rounds * 2 * (scansPerRound + warmScans)
      : kind === 'deliveries'
        ? deliveryMessages + deliveryLatencyScans
        : 20;
  // Seeded by the tree's own code, whose migrations make the schema its servers expect.
  const { seedBenchmark } = (await import(join(tree, 'bench/seed.ts'))) as typeof import('./seed');
  const seeded = await seedBenchmark(dataDir, doorAttendees, kind === 'sync' ? 50_000 : 20, urls?.url);
  if (urls) await settle(urls.url);
  await loadTls(dataDir);
  const ca = readFileSync(join(dataDir, 'tls/localhost-cert.pem'), 'utf8');
  return { dataDir, database: urls?.socketUrl, seeded, ca, scans: freshScans(seeded) };
}

async function main(): Promise<void> {
  const cluster = database === 'throwaway' ? await startCluster({ durable: true }) : null;
  const places: Place[] = [];
  try {
    places.push(await seededPlace(cluster, 'tessera', treeA));
    // A tree whose migrations the other has not would refuse the database they left: each its own.
    if (values.apart) places.push(await seededPlace(cluster, 'tessera_b', treeB));
    const placeOf = (label: 'A' | 'B') => (label === 'B' && places[1]) || places[0]!;
    const figures: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let round = 0; round < rounds; round++) {
      const order: ['A' | 'B', string][] = [
        ['A', treeA],
        ['B', treeB],
      ];
      for (const [label, tree] of round % 2 ? order.reverse() : order) {
        const place = placeOf(label);
        const server = await serve(tree, place.dataDir, place.database);
        try {
          const measured = await measure(server, place);
          figures[label].push(...measured);
          process.stdout.write(
            `round ${round + 1} ${label}: ${measured.map((f) => f.toFixed(kind === 'sync' ? 3 : 0)).join(' ')}\n`,
          );
        } finally {
          await server.stop();
        }
      }
    }
    const [a, b] = [median(figures.A), median(figures.B)];
    const digits = kind === 'sync' ? 3 : 0;
    process.stdout.write(
      `\n${kinds[kind]}, ${cluster ? 'PostgreSQL' : 'SQLite'}${values.apart ? ', each tree on its own data' : ''}, medians of ${figures.A.length}:\n` +
        `A ${treeA}: ${a.toFixed(digits)}\nB ${treeB}: ${b.toFixed(digits)}\n` +
        `B against A: ${(((b - a) / a) * 100).toFixed(1)} % (${kind === 'sync' ? 'lower is faster' : 'higher is faster'})\n`,
    );
  } finally {
    cluster?.stop();
    for (const place of places) rmSync(place.dataDir, { recursive: true, force: true });
  }
}

await main();
