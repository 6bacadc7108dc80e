// npm run bench:event-day [-- --database throwaway|postgres://…]: issue 29's event-day row. One
// server (on PostgreSQL: two processes sharing the database, the clients split between them as a
// proxy would) under a mixed load for 60 s (BENCH_EVENT_DAY_SECONDS), after 5 s of the same load
// counted apart (a server just started compiles each path on its first calls): 16 doors scanning, 4 clients
// registering 1 to 50 people a call, 4 integrations pulling attendees and check-ins by cursor and
// then polling with updatedSince, an assistant calling MCP tools, and every check-in and
// registration delivered to 3 webhook receivers. Reports throughput and p50/p99 per kind against
// the issue's targets, refusals, and how far the dispatcher ran behind; the table goes into
// docs/benchmarks.md between its markers.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { loadTls } from '../src/tls';
import { parsePrometheusText } from '../test/support/prometheus-text';
import { benchDatabase } from './database-flag';
import { EventDayLoad, type Kind, pace, type Tally } from './event-day-load';
import { startLagReceivers } from './event-day-receivers';
import { startServer, stopAll, writeBetweenMarkers } from './processes';
import { seedBenchmark } from './seed';

const root = resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_EVENT_DAY_SECONDS ?? 60);
/** The same load first, on the server just started, counted apart (it compiles each path then). */
const warmupSeconds = 5;
const fullRun = seconds === 60;

const targets: Record<Kind, number> = {
  scan: 50,
  registration: 250,
  'attendee sync page': 250,
  'check-in sync page': 250,
  'MCP tool call': 250,
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function subscribe(origin: string, ca: string, key: string, url: string): Promise<void> {
  const agent = new Agent({ connect: { ca, servername: 'localhost' } });
  const res = await request(`${origin}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, eventTypes: ['checkin.created', 'attendee.registered'] }),
    dispatcher: agent,
  });
  const text = await res.body.text();
  await agent.close();
  if (res.statusCode !== 201)
    throw new Error(`making a webhook endpoint answered ${res.statusCode}: ${text}`);
}

/** Waits until no message has arrived for 2 s (at most 60 s): the queue the load left, drained. */
async function drained(count: () => number): Promise<number> {
  const started = performance.now();
  let last = count();
  let quietSince = performance.now();
  while (performance.now() - quietSince < 2000 && performance.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 200));
    if (count() !== last) {
      last = count();
      quietSince = performance.now();
    }
  }
  return (quietSince - started) / 1000;
}

function table(label: string, tally: Tally, lags: number[], drainSeconds: number): string {
  const kinds = Object.keys(targets) as Kind[];
  const rows = kinds.map((kind) => {
    const sorted = [...(tally.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    const failed = tally.failures(kind);
    const met = p99 < targets[kind] && failed === 0 && sorted.length > 0;
    return `| ${kind} | ${sorted.length} | ${(sorted.length / seconds).toFixed(1)}/s | ${percentile(sorted, 50).toFixed(1)} ms | ${p99.toFixed(1)} ms | < ${targets[kind]} ms | ${failed}${failed ? ` (${tally.refusedStatuses(kind)})` : ''}; ${tally.rateLimited(kind)} rate-limited | ${met ? 'met' : '**missed**'} |`;
  });
  const sortedLags = [...lags].sort((a, b) => a - b);
  const worst = sortedLags.at(-1) ?? 0;
  return [
    `**${label}**`,
    '',
    '| Kind | Calls | A second | p50 | p99 | Target p99 | Refused | |',
    '|---|---:|---:|---:|---:|---|---|---|',
    ...rows,
    `| Webhook deliveries (3 receivers) | ${lags.length} | ${(lags.length / (seconds + warmupSeconds)).toFixed(1)}/s | ${percentile(sortedLags, 50).toFixed(0)} ms behind | ${percentile(sortedLags, 99).toFixed(0)} ms behind | never > 2,000 ms behind (worst ${worst.toFixed(0)} ms; queue drained ${drainSeconds.toFixed(1)} s after the load) | | ${worst <= 2000 ? 'met' : '**missed**'} |`,
  ].join('\n');
}

async function runOn(
  label: string,
  dataDir: string,
  origins: string[],
  seeded: Awaited<ReturnType<typeof seedBenchmark>>,
) {
  const ca = readFileSync(join(dataDir, 'tls/localhost-cert.pem'), 'utf8');
  const receivers = await startLagReceivers(
    join(dataDir, 'tls/localhost-cert.pem'),
    join(dataDir, 'tls/localhost-key.pem'),
    3,
  );
  try {
    for (const receiver of receivers) await subscribe(origins[0]!, ca, seeded.key, receiver.url);
    const load = new EventDayLoad({
      origins,
      ca,
      key: seeded.key,
      doorEventId: seeded.doorEvent.eventId,
      doorAttendeeIds: seeded.doorEvent.attendeeIds,
      syncEventId: seeded.syncEvent.eventId,
      ticketTypeId: seeded.syncEvent.ticketTypeId,
    });
    process.stdout.write(`${label}: ${seconds} s of load…\n`);
    const cpuBefore = process.cpuUsage();
    await load.run(seconds, warmupSeconds);
    const cpu = process.cpuUsage(cpuBefore);
    await load.close();
    const drainSeconds = await drained(() => receivers.reduce((n, r) => n + r.lags.length, 0));
    // Clients and receivers share this process: their share of a core is what the servers lacked.
    const clientCpu = (cpu.user + cpu.system) / 1e6 / (seconds + warmupSeconds);
    const figures = table(
      label,
      load.tally,
      receivers.flatMap((r) => r.lags),
      drainSeconds,
    );
    const ranAgain = await writesRanAgain(origins, ca);
    const slowestWarmup = (Object.keys(targets) as Kind[])
      .map((kind) => `${kind} ${Math.max(0, ...(load.warmupTally.latencies.get(kind) ?? [])).toFixed(0)} ms`)
      .join(', ');
    return `${figures}\n\nThe clients and receivers used ${(clientCpu * 100).toFixed(0)} % of a core during the run. The first ${warmupSeconds} s ran the same load on the servers just started and are not counted above (deliveries are); the slowest call of each kind then: ${slowestWarmup}. Write transactions the database ended as a deadlock's victim and the servers ran again (\`tessera_writes_ran_again_total\`, the servers' sum over the whole run): ${ranAgain}${ranAgain === 0 ? ' (none: every write takes its locks in one order)' : ' (**two writes took their locks in crossing orders**)'}.`;
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
  }
}

const metricsToken = randomBytes(24).toString('hex');

/** The servers' count of writes run again (a deadlock's victim), summed from their /metrics. */
async function writesRanAgain(origins: string[], ca: string): Promise<number> {
  let sum = 0;
  for (const origin of origins) {
    const agent = new Agent({ connect: { ca, servername: 'localhost' } });
    const res = await request(`${origin}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
      dispatcher: agent,
    });
    const text = await res.body.text();
    await agent.close();
    if (res.statusCode !== 200) throw new Error(`${origin}/metrics answered ${res.statusCode}`);
    const ranAgain = parsePrometheusText(text).value('tessera_writes_ran_again_total');
    if (ranAgain === undefined) throw new Error(`${origin}/metrics has no tessera_writes_ran_again_total`);
    sum += ranAgain;
  }
  return sum;
}

async function prepare(database?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-event-day-'));
  // Door attendees for every scan of the run and more; 20,000 to pull at the start.
  const doorAttendees =
    Math.ceil(pace.doors * (1000 / pace.scanEveryMs) * (seconds + warmupSeconds) * 1.2) + 1000;
  const seeded = await seedBenchmark(dataDir, doorAttendees, 20_000, database ?? `${dataDir}/tessera.db`);
  const tls = await loadTls(dataDir);
  // The receivers are on loopback, with the data folder's certificate.
  const env = {
    TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
    // Read at the end: how many writes the database ended as a deadlock's victim.
    TESSERA_METRICS_TOKEN: metricsToken,
    NODE_EXTRA_CA_CERTS: tls.certFile,
    ...(database ? { TESSERA_DATABASE_URL: database } : {}),
  };
  return { dataDir, seeded, env };
}

async function main(): Promise<void> {
  const { url, stop: stopDatabase } = await benchDatabase();
  const children: ChildProcess[] = [];
  const port = 20_000 + Math.floor(Math.random() * 1000);
  const { dataDir, seeded, env } = await prepare(url);
  try {
    const processes = url ? 2 : 1;
    // BENCH_PROFILE=DIR: each server writes a CPU profile there when it stops (as in npm run bench).
    const profile = process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [];
    for (let i = 0; i < processes; i += 1) children.push(await startServer(dataDir, port + i, env, profile));
    const origins = children.map((_, i) => `https://localhost:${port + i}`);
    const label = url ? 'PostgreSQL, two processes sharing the database' : 'SQLite, one process';
    const result = await runOn(label, dataDir, origins, seeded);
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node.js ${process.version}`;
    const text = [
      `Latest run of \`npm run bench:event-day${url ? ' -- --database throwaway' : ''}\` (${new Date().toISOString().slice(0, 10)}), ${seconds} s. Machine: ${machine}; servers, ${url ? 'PostgreSQL, ' : ''}receivers and clients all on it. ${pace.doors} doors each scanning every ${pace.scanEveryMs} ms (one scan in ten someone already in), ${pace.registrationClients} clients each registering 1–50 people every ${pace.registrationEveryMs} ms, ${pace.integrations} integrations (2 on attendees, 2 on check-ins) pulling 500 a page by cursor then polling with updatedSince every ${pace.pollEveryMs} ms, an assistant calling an MCP tool every ${pace.assistantEveryMs} ms, every check-in and registration signed to 3 receivers. "Behind" is a message's arrival against its event's timestamp.`,
      '',
      result,
    ].join('\n');
    process.stdout.write(`\n${text}\n`);
    if (fullRun)
      writeBetweenMarkers(
        join(root, 'docs/benchmarks.md'),
        url ? 'event day postgres' : 'event day',
        text,
        'npm run bench:event-day',
      );
  } finally {
    await stopAll(children);
    await stopDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
