// npm run bench: GET /me and door check-in against a baseline on the same Koa + TLS stack, a full
// cursor sync of 50,000 attendees, registration, deliveries, import, start-up and memory. Prints
// every row with its target (met or missed) and keeps the latest figures in docs/benchmarks.md.
// With `-- --database postgres://…` (or `throwaway`: a cluster of its own) it measures the two stores
// side by side instead (stores.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { startCluster } from '../scripts/postgres-cluster.mjs';
import { loadTls } from '../src/tls';
import { binaryRows, measureBinary } from './binary';
import { measureSeededDeliveries } from './deliveries';
import { measureImport } from './import';
import { runLoad } from './load';
import { startServer, stopAll, waitFor, writeBetweenMarkers } from './processes';
import { attendeesPerCall, measureRegistration } from './registration';
import { seedBenchmark } from './seed';
import { measureStartup, residentMiB } from './startup';
import { benchStores } from './stores';
import { pullAll } from './sync';

const checkIns = Number(process.env.BENCH_CHECKINS ?? 10_000);
const syncSize = Number(process.env.BENCH_SYNC ?? 50_000);
const scanners = Number(process.env.BENCH_SCANNERS ?? 8);
const warmup = 300;
/** How long the server is left without requests before its memory is read again. */
const idleSeconds = 10;
const root = resolve(import.meta.dirname, '..');

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const children: ChildProcess[] = [];
  try {
    process.stdout.write(`Seeding ${checkIns} + ${syncSize} attendees…\n`);
    const seeded = await seedBenchmark(dataDir, checkIns + warmup, syncSize);

    // The server's own certificate, made before it starts so that it can trust it as the
    // delivery receiver's (NODE_EXTRA_CA_CERTS is read when a process starts).
    const tls = await loadTls(dataDir);

    const port = 18_000 + Math.floor(Math.random() * 1000);
    const profile = process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [];
    const server = await startServer(
      dataDir,
      port,
      {
        // The delivery receiver is on loopback.
        TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
        NODE_EXTRA_CA_CERTS: tls.certFile,
      },
      profile,
    );
    children.push(server);
    const certFile = join(dataDir, 'tls/localhost-cert.pem');
    const ca = readFileSync(certFile, 'utf8');

    const baselinePort = port + 1;
    const baseline = fork(
      join(root, 'bench/baseline-server.ts'),
      [certFile, join(dataDir, 'tls/localhost-key.pem'), join(dataDir, 'baseline.db'), String(baselinePort)],
      {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      },
    );
    children.push(baseline);
    await waitFor(baseline, () => false);

    const origin = `https://localhost:${port}`;
    const baselineOrigin = `https://localhost:${baselinePort}`;
    const auth = { authorization: `Bearer ${seeded.key}` };
    const ids = seeded.doorEvent.attendeeIds;
    const checkInPath = (id: string) => `/api/v1/events/${seeded.doorEvent.eventId}/attendees/${id}/check-in`;

    // Warm both servers up (JIT, TLS sessions, caches) on attendees the measured run does not use.
    await runLoad(
      baselineOrigin,
      ca,
      scanners,
      ids.slice(checkIns).map((id) => `/scan/${id}`),
      { method: 'POST' },
    );
    await runLoad(origin, ca, scanners, ids.slice(checkIns).map(checkInPath), {
      method: 'POST',
      headers: auth,
    });

    const base = await runLoad(
      baselineOrigin,
      ca,
      scanners,
      ids.slice(0, checkIns).map((id) => `/scan/${id}`),
      { method: 'POST' },
    );
    // The same stack's cost without a scan: key verification, rate counter, activity, routing.
    // Warmed up on its own path first, as the two runs above were on theirs.
    await runLoad(origin, ca, scanners, Array(1_000).fill('/api/v1/me'), { method: 'GET', headers: auth });
    const me = await runLoad(origin, ca, scanners, Array(checkIns).fill('/api/v1/me'), {
      method: 'GET',
      headers: auth,
    });
    const real = await runLoad(origin, ca, scanners, ids.slice(0, checkIns).map(checkInPath), {
      method: 'POST',
      headers: auth,
      ok: (status, body) => status === 200 && body.includes('"result":"welcome"'),
    });

    const plainPull = await pullAll(origin, ca, auth, seeded.syncEvent.eventId);
    const { rows: pulled, pages, seconds: syncSeconds } = plainPull;
    if (pulled !== syncSize) throw new Error(`sync pulled ${pulled} of ${syncSize}`);
    // The same pull as an integration over a real network would ask for it: compressed.
    const gzipPull = await pullAll(origin, ca, auth, seeded.syncEvent.eventId, 'gzip');
    const brPull = await pullAll(origin, ca, auth, seeded.syncEvent.eventId, 'br');

    // After the sync: the attendees it registers would change what the sync pulls.
    const registered = await measureRegistration({
      origin,
      ca,
      key: seeded.key,
      eventId: seeded.syncEvent.eventId,
      ticketTypeId: seeded.syncEvent.ticketTypeId,
      calls: 400,
    });
    if (registered.failures > 0) throw new Error(`${registered.failures} registration calls failed`);

    const delivered = await measureSeededDeliveries({
      origin,
      ca,
      dataDir,
      seeded,
      messages: checkIns,
      latencyScans: Math.min(1_000, checkIns),
    });

    process.stdout.write(`Importing ${syncSize} attendees with tessera import…\n`);
    const imported = measureImport(root, syncSize);

    // Memory after the whole bench, then start-up: the server stops and `npm start` runs on its
    // data folder (now holding every attendee above).
    const memory = residentMiB(server.pid!);
    // And once it has been idle a while: V8 gives pages back when the allocation stops (its memory
    // reducer), which the figure above, taken as the work ends, does not see.
    await new Promise((done) => setTimeout(done, idleSeconds * 1000));
    const memoryIdle = residentMiB(server.pid!);
    const stopped = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await stopped;
    children.splice(children.indexOf(server), 1);
    process.stdout.write('Timing npm start…\n');
    const startup = await measureStartup({ root, dataDir, port: port + 2, ca, key: seeded.key, runs: 3 });
    process.stdout.write('Building the single executable and timing its start-up…\n');
    const binary = await measureBinary({ root, port: port + 3, runs: 3 });

    const ratio = real.perSecond / base.perSecond;
    const meRatio = me.perSecond / base.perSecond;
    const clientLoad = `The load generator used ${(base.clientCpu * 100).toFixed(0)} % of a core during the baseline run and ${(real.clientCpu * 100).toFixed(0)} % during the check-in run, so the baseline figure is partly bound by the client: the server's own margin is larger than the ratio shows.`;
    const rows = [
      [
        'Baseline (Koa + TLS, one insert)',
        `${base.perSecond.toFixed(0)}/s`,
        `${base.p50.toFixed(1)} ms`,
        `${base.p99.toFixed(1)} ms`,
        '1.00',
        String(base.failures),
      ],
      [
        'Key check only (GET /me)',
        `${me.perSecond.toFixed(0)}/s`,
        `${me.p50.toFixed(1)} ms`,
        `${me.p99.toFixed(1)} ms`,
        meRatio.toFixed(2),
        String(me.failures),
      ],
      [
        'Door check-in',
        `${real.perSecond.toFixed(0)}/s`,
        `${real.p50.toFixed(1)} ms`,
        `${real.p99.toFixed(1)} ms`,
        ratio.toFixed(2),
        String(real.failures),
      ],
    ];
    const table = [
      `| Run (${checkIns} requests, ${scanners} scanners, HTTPS keep-alive) | Throughput | p50 | p99 | Ratio to baseline | Failures |`,
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `| Sync | Attendees | Pages (limit 500) | Seconds | Bytes a row on the wire |`,
      '|---|---|---|---|---|',
      `| Cursor pull of one event | ${pulled} | ${pages} | ${syncSeconds.toFixed(2)} | ${(plainPull.bytes / pulled).toFixed(0)} |`,
      `| The same, gzip (Accept-Encoding: gzip) | ${gzipPull.rows} | ${gzipPull.pages} | ${gzipPull.seconds.toFixed(2)} | ${(gzipPull.bytes / gzipPull.rows).toFixed(0)} |`,
      `| The same, Brotli (Accept-Encoding: br) | ${brPull.rows} | ${brPull.pages} | ${brPull.seconds.toFixed(2)} | ${(brPull.bytes / brPull.rows).toFixed(0)} |`,
      '',
      '| Webhooks (signed, local HTTPS receiver answering at once) | Messages | Seconds | Deliveries a second | Check-in to delivery p50 | p99 |',
      '|---|---|---|---|---|---|',
      `| checkin.created to one endpoint | ${delivered.messages} | ${delivered.seconds.toFixed(2)} | ${delivered.perSecond.toFixed(0)}/s | ${delivered.p50.toFixed(0)} ms | ${delivered.p99.toFixed(0)} ms (${delivered.latencyScans} scans) |`,
      '',
      '| Import (`tessera import`, the whole command) | Attendees | First import | Same file again |',
      '|---|---|---|---|',
      `| One event, two tickets an order | ${imported.attendees} | ${imported.firstSeconds.toFixed(1)} s | ${imported.againSeconds.toFixed(1)} s |`,
      '',
      `| Registration (${attendeesPerCall} attendees a call, 4 clients, HTTPS) | Calls | Calls a second | Attendees a second | p50 | p99 | Ratio to Directus's bulk create (453 rows/s) |`,
      '|---|---|---|---|---|---|---|',
      `| POST /events/{id}/attendees | ${registered.requests} | ${registered.perSecond.toFixed(0)}/s | ${registered.attendeesPerSecond.toFixed(0)}/s | ${registered.p50.toFixed(1)} ms | ${registered.p99.toFixed(1)} ms | ${(registered.attendeesPerSecond / 453).toFixed(1)}× |`,
      '',
      '| Start-up and memory | |',
      '|---|---|',
      `| \`npm start\` to the first answer of GET /me, existing data folder (median of ${startup.runs.length}) | ${startup.median.toFixed(0)} ms (${startup.runs.map((ms) => ms.toFixed(0)).join(', ')}) |`,
      `| Server's resident memory after the whole bench | ${memory.toFixed(0)} MiB |`,
      `| The same after ${idleSeconds} s without requests | ${memoryIdle.toFixed(0)} MiB |`,
      ...binaryRows(binary),
    ].join('\n');
    const targets = [
      `- GET /me ≥ 0.85 × baseline: ${meRatio >= 0.85 ? 'met' : 'missed'} (${meRatio.toFixed(2)})`,
      `- check-in throughput ≥ 0.5 × baseline: ${ratio >= 0.5 ? 'met' : 'missed'} (${ratio.toFixed(2)})`,
      `- check-in p99 < 20 ms: ${real.p99 < 20 ? 'met' : 'missed'} (${real.p99.toFixed(1)} ms)`,
      `- 50,000-attendee sync < 0.6 s: ${syncSeconds < 0.6 ? 'met' : 'missed'} (${syncSeconds.toFixed(2)} s)`,
      `- registration ≥ 10,000 attendees a second (${attendeesPerCall} a call): ${registered.attendeesPerSecond >= 10_000 ? 'met' : 'missed'} (${registered.attendeesPerSecond.toFixed(0)}/s)`,
      `- signed deliveries ≥ 2,000/s: ${delivered.perSecond >= 2000 ? 'met' : 'missed'} (${delivered.perSecond.toFixed(0)}/s)`,
      `- check-in to delivery p99 < 2 s: ${delivered.p99 < 2000 ? 'met' : 'missed'} (${delivered.p99.toFixed(0)} ms)`,
      `- 50,000-attendee import < 30 s: ${imported.firstSeconds < 30 ? 'met' : 'missed'} (${imported.firstSeconds.toFixed(1)} s)`,
      `- start-up to the first answer < 1 s: ${startup.median < 1000 ? 'met' : 'missed'} (${startup.median.toFixed(0)} ms)`,
      `- resident memory after the bench < 150 MiB: ${memory < 150 ? 'met' : 'missed'} (${memory.toFixed(0)} MiB)`,
    ].join('\n');
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory (${(freemem() / 2 ** 30).toFixed(0)} GiB free), Node.js ${process.version}, ${process.platform}/${process.arch}`;
    process.stdout.write(`\n${table}\n\nTargets:\n${targets}\n\n${clientLoad}\n\nMachine: ${machine}\n`);
    if (checkIns === 10_000 && syncSize === 50_000) {
      const latest = `Latest run of \`npm run bench\` (${new Date().toISOString().slice(0, 10)}).\n\nMachine: ${machine}.\n\n${table}\n\nTargets:\n${targets}\n\n${clientLoad}`;
      writeBetweenMarkers(join(root, 'docs/benchmarks.md'), 'latest run', latest);
    }
  } finally {
    await stopAll(children);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const database = process.argv.indexOf('--database');
if (database >= 0) {
  const url = process.argv[database + 1] ?? '';
  const sizes = { checkIns, syncSize, scanners };
  if (url === 'throwaway') {
    // A cluster of this machine's PostgreSQL with its defaults for durability, removed afterwards,
    // reached through its Unix socket as a server on the database's machine should reach it.
    const cluster = await startCluster({ durable: true });
    await benchStores(root, cluster.socketUrl, sizes).finally(() => cluster.stop());
  } else if (/^postgres(ql)?:\/\//.test(url)) await benchStores(root, url, sizes);
  else throw new Error('--database takes a postgres:// URL, or throwaway for a cluster of its own.');
} else await main();
