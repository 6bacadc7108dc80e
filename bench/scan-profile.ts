// npm run bench:scan [-- register] — the door check-in use case (or a registration of 50) in-process,
// without HTTP: milliseconds a call and, per SQL statement, its count and average time (Kysely's
// query log). For finding what a call costs before and after a change to the hot path.
// BENCH_DATABASE=postgres://… measures it on that PostgreSQL database instead of a SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAttendees } from '../core/attendees';
import { checkInAttendee } from '../core/checkin';
import { systemClock } from '../core/platform/clock';
import { silentLog } from '../core/platform/log';
import { verifyToken } from '../core/platform/pipeline/authenticate';
import { IdempotencyInFlight } from '../core/platform/pipeline/idempotency';
import { invoke } from '../core/platform/pipeline/invoke';
import { deriveSecrets } from '../core/platform/secrets';
import type { Services } from '../core/platform/services';
import { ActivityRecorder } from '../core/platform/storage/activity';
import { KeyCache } from '../core/platform/storage/key-cache';
import { OutboxSignal } from '../core/platform/storage/outbox-signal';
import { RateCounter } from '../core/platform/storage/rate-counter';
import { WriteBatcher, writeLanes } from '../core/platform/storage/write-batch';
import { TicketCodeGuesses } from '../core/platform/ticket-code-guesses';
import { tokenVerifier } from '../core/platform/token-verifier';
import { openDatabase } from '../db/connect';
import { registrationBody } from './registration';
import { seedBenchmark } from './seed';

const registering = process.argv[2] === 'register';
const scans = Number(process.env.BENCH_SCANS ?? (registering ? 300 : 3000));
const dir = mkdtempSync(join(tmpdir(), 'tessera-scan-'));
try {
  const location = process.env.BENCH_DATABASE ?? join(dir, 'tessera.db');
  const seeded = await seedBenchmark(dir, scans + 200, 1, location);
  const body = JSON.parse(registrationBody(seeded.syncEvent.ticketTypeId)) as object;
  const statements = new Map<string, { n: number; ms: number }>();
  const { db, snapshot, writers, close } = openDatabase(location, {
    backgroundCheckpoints: silentLog,
    queryLog: (event) => {
      const sql = event.query.sql.replace(/\s+/g, ' ').slice(0, 100);
      const s = statements.get(sql) ?? { n: 0, ms: 0 };
      s.n += 1;
      s.ms += event.queryDurationMillis;
      statements.set(sql, s);
    },
  });
  // As the server writes: several transactions in flight on PostgreSQL, each taking its change position.
  const writes = new WriteBatcher(db, writeLanes(writers));
  const services: Services = {
    db,
    snapshot,
    clock: systemClock,
    secrets: deriveSecrets(Buffer.from('bench')),
    rate: new RateCounter(),
    ticketGuesses: new TicketCodeGuesses(new RateCounter()),
    log: silentLog,
    activity: new ActivityRecorder(writes, silentLog),
    writes,
    idempotencyInFlight: new IdempotencyInFlight(),
    defaultRatePerMinute: 1e9,
    delivery: { allowPrivate: false, timeoutMs: 10_000 },
    outboxSignal: new OutboxSignal(),
    keys: new KeyCache(),
    tokens: tokenVerifier({ keys: [] }),
    strictProblems: false,
  };
  const scan = async (attendeeId: string) => {
    const verified = await verifyToken(services, seeded.key, 'rest');
    if (!verified.ok) throw verified.problem;
    const ctx = {
      db,
      clock: systemClock,
      actor: verified.actor,
      services,
      request: { origin: 'https://localhost' },
    };
    if (registering) await invoke(registerAttendees, ctx, { eventId: seeded.syncEvent.eventId, ...body });
    else await invoke(checkInAttendee, ctx, { eventId: seeded.doorEvent.eventId, attendeeId });
  };
  for (const id of seeded.doorEvent.attendeeIds.slice(scans)) await scan(id); // warm-up
  statements.clear();
  const started = performance.now();
  for (const id of seeded.doorEvent.attendeeIds.slice(0, scans)) await scan(id);
  const perScan = (performance.now() - started) / scans;
  const inSql = [...statements.values()].reduce((n, s) => n + s.ms, 0) / scans;
  process.stdout.write(
    `${scans} ${registering ? 'registrations of 50' : 'scans'}: ${perScan.toFixed(3)} ms a call, of which ${inSql.toFixed(3)} ms in statements\n\n`,
  );
  for (const [sql, s] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
    process.stdout.write(`${(s.ms / scans).toFixed(3)} ms  ${String(s.n / scans).padStart(4)}×  ${sql}\n`);
  }
  await close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
