// The delivery half of npm run bench: signed deliveries a second to a local HTTPS receiver that
// answers at once, and the time from a check-in to its delivery.
//
// Throughput: the 10,000 checkin.created messages the check-in run left in the outbox (already
// dispatched to nobody then) are put back as new, after an endpoint subscribed to them; the server
// fans them out and delivers them. Counted from the first delivery to the last.
// Latency: people are checked in again at a steady pace (each scan emits checkin.created); for each
// one, the time from sending the scan to its message reaching the receiver.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { openDatabase } from '../db/connect';
import type { Seeded } from './seed';

interface Arrival {
  attendeeId: string;
  at: number;
}

export interface BenchReceiver {
  url: string;
  arrivals: Arrival[];
  /** Resolves when `count` messages have arrived since `from` (an index into arrivals). */
  until(count: number, from?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** An HTTPS receiver answering 204 at once, with the server's own certificate (trusted by it). */
export async function startBenchReceiver(certFile: string, keyFile: string): Promise<BenchReceiver> {
  const arrivals: Arrival[] = [];
  let waiting: { count: number; from: number; done: () => void } | null = null;
  const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ attendeeId: body.data?.attendee?.attendeeId ?? '', at });
      res.writeHead(204).end();
      if (waiting && arrivals.length - waiting.from >= waiting.count) {
        waiting.done();
        waiting = null;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/bench`,
    arrivals,
    until(count, from = 0, timeoutMs = 120_000) {
      if (arrivals.length - from >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the receiver got ${arrivals.length - from} of ${count} messages`)),
          timeoutMs,
        );
        waiting = {
          count,
          from,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface DeliveryFigures {
  messages: number;
  perSecond: number;
  seconds: number;
  latencyScans: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function measureDeliveries(o: {
  origin: string;
  ca: string;
  key: string;
  dbFile: string;
  workspaceId: string;
  eventId: string;
  attendeeIds: string[];
  receiver: BenchReceiver;
  /** Messages to deliver in the throughput run. */
  messages: number;
  latencyScans: number;
}): Promise<DeliveryFigures> {
  const agent = new Agent({ connect: { ca: o.ca, servername: 'localhost' } });
  const auth = { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' };
  const made = await request(`${o.origin}/api/v1/webhooks`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: o.receiver.url, eventTypes: ['checkin.created'] }),
    dispatcher: agent,
  });
  if (made.statusCode !== 201)
    throw new Error(`making the endpoint answered ${made.statusCode}: ${await made.body.text()}`);
  await made.body.dump();

  // Throughput: the check-in run's messages, queued again.
  const { db, close } = openDatabase(o.dbFile);
  let messages: number;
  try {
    const requeued = await db
      .updateTable('outbox')
      .set({ dispatched_utc: null, created_utc: new Date().toISOString() })
      .where(
        'id',
        'in',
        db
          .selectFrom('outbox')
          .select('id')
          .where('workspace_id', '=', o.workspaceId)
          .where('type', '=', 'checkin.created')
          .orderBy('id', 'desc')
          .limit(o.messages),
      )
      .executeTakeFirst();
    messages = Number(requeued.numUpdatedRows);
  } finally {
    await close();
  }
  await o.receiver.until(messages);
  const first = o.receiver.arrivals[0]!.at;
  const last = o.receiver.arrivals[messages - 1]!.at;
  const seconds = (last - first) / 1000;

  // Latency: one scan every 10 ms from each of 2 scanners, each timed to its message.
  const sentAt = new Map<string, number>();
  const from = o.receiver.arrivals.length;
  const ids = o.attendeeIds.slice(0, o.latencyScans);
  const scanner = async (part: string[]) => {
    for (const id of part) {
      sentAt.set(id, performance.now());
      const res = await request(`${o.origin}/api/v1/events/${o.eventId}/attendees/${id}/check-in`, {
        method: 'POST',
        headers: auth,
        dispatcher: agent,
      });
      await res.body.dump();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await Promise.all([scanner(ids.filter((_, i) => i % 2 === 0)), scanner(ids.filter((_, i) => i % 2 === 1))]);
  await o.receiver.until(ids.length, from);
  const latencies = o.receiver.arrivals
    .slice(from)
    .map((a) => a.at - sentAt.get(a.attendeeId)!)
    .sort((a, b) => a - b);
  await agent.close();
  return {
    messages,
    perSecond: messages / seconds,
    seconds,
    latencyScans: ids.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * The deliveries of a seeded bench server (its data folder, its own certificate trusted by it) to a
 * receiver started for the measurement and stopped after it.
 */
export async function measureSeededDeliveries(o: {
  origin: string;
  ca: string;
  dataDir: string;
  seeded: Seeded;
  messages: number;
  latencyScans: number;
}): Promise<DeliveryFigures> {
  const tls = join(o.dataDir, 'tls');
  const receiver = await startBenchReceiver(join(tls, 'localhost-cert.pem'), join(tls, 'localhost-key.pem'));
  return measureDeliveries({
    origin: o.origin,
    ca: o.ca,
    key: o.seeded.key,
    dbFile: join(o.dataDir, 'tessera.db'),
    workspaceId: o.seeded.workspaceId,
    eventId: o.seeded.doorEvent.eventId,
    attendeeIds: o.seeded.doorEvent.attendeeIds,
    receiver,
    messages: o.messages,
    latencyScans: o.latencyScans,
  }).finally(() => receiver.close());
}
