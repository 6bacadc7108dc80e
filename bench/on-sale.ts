// npm run bench:on-sale [-- --database throwaway|postgres://…]: an on-sale rush on the public form.
// 5,000 submissions within 60 s, from 250 loopback addresses (20 each, within the form's limit per
// address), half for 500 card places (each a Checkout session at the Stripe stand-in: a hold) and
// half for 500 free places. Counted: holds, tickets, buyers told sold out, 5xx (none allowed), the
// form POST's p50 and p99 (target under 500 ms); a card buyer told sold out is offered the card
// type's waiting list, and 150 of them join it, one after another. Then 400 holds are paid at the
// stand-in and the other 100 reach their end: the time until the reconciliation job released them
// (target: within a minute of expiry), and whether the first 100 in line, exactly, were offered the
// places. On PostgreSQL two processes share the database, the addresses split between them.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request, fetch as undiciFetch } from 'undici';
import { createKey } from '../core/admin/api-keys';
import { createWorkspace } from '../core/admin/workspaces';
import { systemClock } from '../core/platform/clock';
import { type Db, migrateToLatest, openDatabase } from '../db/connect';
import { loadTls } from '../src/tls';
import { makeTestCa } from '../test/support/test-ca';
import { benchDatabase } from './database-flag';
import { startServer, stopAll, writeBetweenMarkers } from './processes';

const submissions = Number(process.env.BENCH_ON_SALE_SUBMISSIONS ?? 5_000);
const places = { card: 500, free: 500 };
const addresses = 250;
const rushSeconds = 60;
const unpaid = 100;
/** People who join the card type's waiting list after the rush, in this order. */
const joiners = 150;
const root = resolve(import.meta.dirname, '..');

interface Outcome {
  kind: 'hold' | 'ticket' | 'soldOut' | 'limited' | 'serverError' | 'other';
  ms: number;
  /** A sold-out answer that pointed at the waiting list. */
  toWaitingList?: boolean;
  /** When it was sent, from the rush's start. */
  atMs: number;
}

/** The machine's CPU time so far (all cores), busy and in all, from /proc/stat (Linux). */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th.
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** How busy the machine's cores were in each 10 s of the rush (what bounds it when near 100 %). */
function sampleBusy(): { stop(): string[] } {
  const shares: string[] = [];
  let last = machineCpu();
  const timer = setInterval(() => {
    const now = machineCpu();
    shares.push(`${((100 * (now.busy - last.busy)) / (now.total - last.total)).toFixed(0)} %`);
    last = now;
  }, 10_000);
  return {
    stop() {
      clearInterval(timer);
      return shares;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The workspace and key the rush's organiser uses, written before the servers start. */
async function seedOrganiser(database: string): Promise<string> {
  const { db, close } = openDatabase(database);
  await migrateToLatest(db);
  const { workspaceId } = await createWorkspace(db, systemClock, { name: 'On-sale rush' });
  const { key } = await createKey(db, systemClock, {
    workspaceId,
    name: 'bench',
    preset: 'everything',
    expires: 'never',
  });
  await close();
  return key;
}

/** The event on sale: published, card payments through the stand-in, 500 card and 500 free places. */
async function setUpEvent(
  api: (path: string, method: string, body?: unknown) => Promise<any>,
  stripe: Awaited<ReturnType<typeof import('../test/support/stripe-stand-in').startStripeStandIn>>,
  origin: string,
  serverFetch: typeof globalThis.fetch,
) {
  const secretKey = `sk_test_bench${Date.now()}`;
  const webhookSecret = `whsec_bench${Date.now()}`;
  const accountId = 'acct_onsalebench';
  stripe.acceptKey(secretKey, { accountId, accountName: 'On-sale bench' });
  await api('/payments/stripe', 'PUT', { secretKey, webhookSecret });
  const me = await api('/me', 'GET');
  stripe.addEndpoint(accountId, {
    url: `${origin}/api/v1/payments/stripe/webhook/${me.workspaceId}`,
    secret: webhookSecret,
    fetch: serverFetch,
  });
  const event = await api('/events', 'POST', {
    name: 'Rush Conf',
    startsLocal: '2030-06-01T09:00',
    endsLocal: '2030-06-01T17:00',
    timeZone: 'Europe/Oslo',
    venue: { name: 'Hall', city: 'Oslo', country: 'NO' },
    currency: 'NOK',
  });
  const card = await api(`/events/${event.eventId}/ticket-types`, 'POST', {
    name: 'Conference pass',
    price: 1250,
    vatRate: 25,
    capacity: places.card,
    maxPerOrder: 10,
    waitingList: true,
  });
  const free = await api(`/events/${event.eventId}/ticket-types`, 'POST', {
    name: 'Community pass',
    price: 0,
    capacity: places.free,
    maxPerOrder: 10,
  });
  await api(`/events/${event.eventId}`, 'PATCH', { paymentMethods: 'card' });
  await api(`/events/${event.eventId}/status`, 'PUT', { status: 'published' });
  return {
    eventId: event.eventId as string,
    slug: event.slug as string,
    cardId: card.ticketTypeId,
    freeId: free.ticketTypeId,
  };
}

/** The rush: submission i leaves at i × (60 s / n), from address 127.1.0.(i mod 250 + 1). */
async function rush(
  origins: string[],
  ca: string,
  event: { slug: string; cardId: string; freeId: string },
  checkoutOrigin: string,
): Promise<Outcome[]> {
  const agents = Array.from(
    { length: addresses },
    (_, a) =>
      new Agent({
        localAddress: `127.1.0.${a + 1}`,
        connect: { ca, servername: 'localhost' },
        connections: 4,
        keepAliveTimeout: 30_000,
      }),
  );
  // Each process serves buyers of both types, as a load balancer would: addresses in pairs (an
  // address's parity is its submissions' type), so one process never takes all the card orders.
  const originOf = (address: number) => origins[Math.floor(address / 2) % origins.length]!;
  // As at a real on-sale, the buyers have the event's page open when the sale starts: each address
  // loads it once (its connection then open, as a browser's would be).
  await Promise.all(
    agents.map(async (dispatcher, address) => {
      const res = await request(`${originOf(address)}/e/${event.slug}`, { dispatcher });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`the event's page answered ${res.statusCode}`);
    }),
  );
  const gapMs = (rushSeconds * 1000 * 0.9) / submissions;
  const start = performance.now();
  const one = async (i: number): Promise<Outcome> => {
    const wait = start + i * gapMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const address = i % addresses;
    const origin = originOf(address);
    const typeId = i % 2 === 0 ? event.cardId : event.freeId;
    const body = new URLSearchParams({
      [`qty.${typeId}`]: '1',
      'person.0.firstName': 'Rush',
      'person.0.lastName': `Buyer ${i}`,
      'person.0.email': `rush.${i}@example.org`,
      action: 'register',
    }).toString();
    const sent = performance.now();
    const at = (kind: Outcome['kind']): Outcome => ({
      kind,
      ms: performance.now() - sent,
      atMs: sent - start,
    });
    try {
      const res = await request(`${origin}/e/${event.slug}/register`, {
        method: 'POST',
        dispatcher: agents[address],
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin,
          'sec-fetch-site': 'same-origin',
        },
        body,
      });
      const page = await res.body.text();
      const location = String(res.headers.location ?? '');
      if (res.statusCode >= 500) return at('serverError');
      if (res.statusCode === 303 && location.startsWith(checkoutOrigin)) return at('hold');
      if (res.statusCode === 303 && location.includes('/registered')) return at('ticket');
      if (res.statusCode === 409) return { ...at('soldOut'), toWaitingList: page.includes('#waiting-list') };
      if (res.statusCode === 429) return at('limited');
      return at('other');
    } catch {
      return at('serverError');
    }
  };
  const outcomes = await Promise.all(Array.from({ length: submissions }, (_, i) => one(i)));
  await Promise.all(agents.map((a) => a.close()));
  return outcomes;
}

/** What the database holds after the rush: card orders awaiting payment, and free tickets. */
async function counted(db: Db, event: { eventId: string; freeId: string }) {
  const holds = await db
    .selectFrom('orders')
    .innerJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('orders.event_id', '=', event.eventId)
    .where('orders.status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const tickets = await db
    .selectFrom('attendees')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ticket_type_id', '=', event.freeId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return { holds: Number(holds.n), tickets: Number(tickets.n) };
}

/** People join the card type's waiting list from its page, one after another: the line's order. */
async function joinWaitingList(
  origin: string,
  ca: string,
  event: { slug: string; cardId: string },
): Promise<void> {
  for (let i = 0; i < joiners; i += 1) {
    const agent = new Agent({
      localAddress: `127.2.0.${(i % 250) + 1}`,
      connect: { ca, servername: 'localhost' },
    });
    const res = await request(`${origin}/e/${event.slug}/waiting`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({
        'wait.ticketTypeId': event.cardId,
        'wait.firstName': 'Waiting',
        'wait.lastName': `Person ${i}`,
        'wait.email': `waiting.${i}@example.org`,
        'wait.consent': 'yes',
      }).toString(),
    });
    const text = await res.body.text();
    await agent.close();
    if (res.statusCode !== 200 || !text.includes('on the waiting list'))
      throw new Error(`joining the waiting list answered ${res.statusCode}`);
  }
}

/** Whether exactly the first `n` in line hold an offer, and the others still wait. */
async function offeredInLine(db: Db, ticketTypeId: string, n: number): Promise<boolean> {
  const line = await db
    .selectFrom('waiting_list_entries')
    .select(['status', 'last_name'])
    .where('ticket_type_id', '=', ticketTypeId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return (
    line.length === joiners &&
    line.every((e, i) => e.last_name === `Person ${i}` && e.status === (i < n ? 'offered' : 'waiting'))
  );
}

/** Pays all but `unpaid` holds at the stand-in, ends the others' holds now, and times their release. */
async function expireHolds(
  db: Db,
  stripe: Awaited<ReturnType<typeof import('../test/support/stripe-stand-in').startStripeStandIn>>,
  eventId: string,
) {
  const open = [...stripe.sessions.values()].filter((s) => s.status === 'open');
  for (const session of open.slice(unpaid)) await stripe.pay(session.id);
  const left = await db
    .selectFrom('orders')
    .innerJoin('card_checkouts', 'card_checkouts.order_id', 'orders.id')
    .select('orders.id')
    .where('orders.event_id', '=', eventId)
    .where('orders.status', '=', 'pending')
    .execute();
  // Their holds end now, as 30 minutes on would end them: what is timed is the release after.
  const ended = new Date().toISOString();
  await db
    .updateTable('card_checkouts')
    .set({ hold_until_utc: ended })
    .where(
      'order_id',
      'in',
      left.map((o) => o.id),
    )
    .execute();
  const since = performance.now();
  for (;;) {
    const still = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(
        'id',
        'in',
        left.map((o) => o.id),
      )
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(still.n) === 0) break;
    if (performance.now() - since > 180_000) throw new Error(`${still.n} holds not released after 3 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return { released: left.length, seconds: (performance.now() - since) / 1000 };
}

async function main(): Promise<void> {
  const { url, stop: stopDatabase } = await benchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-on-sale-'));
  const caDir = join(dataDir, 'test-ca');
  const caFiles = await makeTestCa(caDir);
  // The stand-in's certificate is signed by this CA: the servers trust it as they would Stripe's.
  process.env.TESSERA_TEST_CA_DIR = caDir;
  process.env.NODE_EXTRA_CA_CERTS = caFiles.caCert;
  const { startStripeStandIn } = await import('../test/support/stripe-stand-in');
  const stripe = await startStripeStandIn();
  const children: ChildProcess[] = [];
  const dbFile = url ?? `${dataDir}/tessera.db`;
  try {
    const key = await seedOrganiser(dbFile);
    const tls = await loadTls(dataDir);
    const ca = readFileSync(tls.certFile, 'utf8');
    const port = 21_000 + Math.floor(Math.random() * 1000);
    const env = {
      NODE_EXTRA_CA_CERTS: caFiles.caCert,
      TESSERA_STRIPE_API_URL: stripe.origin,
      ...(url ? { TESSERA_DATABASE_URL: url } : {}),
    };
    const processes = url ? 2 : 1;
    for (let i = 0; i < processes; i += 1) children.push(await startServer(dataDir, port + i, env));
    const origins = children.map((_, i) => `https://localhost:${port + i}`);
    const agent = new Agent({ connect: { ca, servername: 'localhost' } });
    const serverFetch = ((input: string, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof globalThis.fetch;
    const api = async (path: string, method: string, body?: unknown) => {
      const res = await serverFetch(`${origins[0]}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : {};
    };
    const event = await setUpEvent(api, stripe, origins[0]!, serverFetch);
    process.stdout.write(`Rush: ${submissions} submissions in ${rushSeconds} s to ${origins.join(', ')}…\n`);
    const started = performance.now();
    const busy = sampleBusy();
    const outcomes = await rush(origins, ca, event, stripe.origin);
    const busyShares = busy.stop();
    const rushSecondsTaken = (performance.now() - started) / 1000;
    await joinWaitingList(origins[0]!, ca, event);
    const { db, close } = openDatabase(dbFile);
    try {
      const stored = await counted(db, event);
      const expiry = await expireHolds(db, stripe, event.eventId);
      const inLine = await offeredInLine(db, event.cardId, unpaid);
      const by = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
      const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
      const p99 = percentile(ms, 99);
      const of = (kind: Outcome['kind']) => {
        const sorted = outcomes
          .filter((o) => o.kind === kind)
          .map((o) => o.ms)
          .sort((a, b) => a - b);
        return `${percentile(sorted, 50).toFixed(0)} / ${percentile(sorted, 99).toFixed(0)}`;
      };
      const byTenSeconds = Array.from({ length: 6 }, (_, i) => {
        const sorted = outcomes
          .filter((o) => o.atMs >= i * 10_000 && o.atMs < (i + 1) * 10_000)
          .map((o) => o.ms)
          .sort((a, b) => a - b);
        return `${percentile(sorted, 99).toFixed(0)}`;
      });
      const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node.js ${process.version}`;
      const label = url ? 'PostgreSQL, two processes sharing the database' : 'SQLite, one process';
      const text = [
        `Latest run of \`npm run bench:on-sale${url ? ' -- --database throwaway' : ''}\` (${new Date().toISOString().slice(0, 10)}), ${label}. Machine: ${machine}; servers, the Stripe stand-in and the ${addresses} client addresses all on it. ${submissions} form submissions, one ticket each, sent over ${(rushSeconds * 0.9).toFixed(0)} s (all answered within ${rushSecondsTaken.toFixed(1)} s), half for ${places.card} card places, half for ${places.free} free places.`,
        '',
        '| Row | Measured | Target |',
        '|---|---|---|',
        `| Card holds (Checkout sessions made) | ${by('hold')} answered, ${stored.holds} stored | exactly ${places.card}: ${by('hold') === places.card && stored.holds === places.card ? 'met' : 'missed'} |`,
        `| Free tickets | ${by('ticket')} answered, ${stored.tickets} stored | exactly ${places.free}: ${by('ticket') === places.free && stored.tickets === places.free ? 'met' : 'missed'} |`,
        `| Told sold out | ${by('soldOut')}, of which ${outcomes.filter((o) => o.toWaitingList).length} offered the waiting list | every other buyer (${submissions - places.card - places.free}), card buyers offered the list: ${by('soldOut') === submissions - places.card - places.free ? 'met' : 'missed'} |`,
        `| 5xx or no answer | ${by('serverError')} | 0: ${by('serverError') === 0 ? 'met' : 'missed'} |`,
        `| Refused by a rate limit, or else | ${by('limited')}, ${by('other')} | 0 |`,
        `| Form POST p50 / p99 | ${percentile(ms, 50).toFixed(0)} / ${p99.toFixed(0)} ms | p99 under 500 ms: ${p99 < 500 ? 'met' : 'missed'} |`,
        `| … of holds, tickets, sold out (p50 / p99) | ${of('hold')}, ${of('ticket')}, ${of('soldOut')} ms | |`,
        `| … p99 of each 10 s of the rush | ${byTenSeconds.join(', ')} ms | |`,
        `| The machine's cores busy in each 10 s | ${busyShares.join(', ')} | |`,
        `| ${expiry.released} holds ended unpaid (${places.card - unpaid} paid) released | after ${expiry.seconds.toFixed(1)} s | within 60 s of expiry: ${expiry.seconds <= 60 ? 'met' : 'missed'} |`,
        `| Their places offered to the waiting list (${joiners} in line) | ${inLine ? `the first ${unpaid}, in order` : 'not in line order'} | the first ${unpaid} in order: ${inLine ? 'met' : 'missed'} |`,
      ].join('\n');
      process.stdout.write(`\n${text}\n`);
      if (submissions === 5_000)
        writeBetweenMarkers(
          join(root, 'docs/benchmarks.md'),
          url ? 'on-sale postgres' : 'on-sale',
          text,
          'npm run bench:on-sale',
        );
    } finally {
      await close();
    }
  } finally {
    await stopAll(children);
    await stripe.close();
    await stopDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
