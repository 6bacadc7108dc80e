// The server's metrics, in a prom-client registry of its own (tests run many servers in one
// process): requests by operation and status with their latency, rate-limit refusals, deliveries
// and e-mails by outcome, database time, and the delivery queue read at scrape time. Core reports
// through the Metrics interface (core/platform/metrics.ts) and never sees prom-client.
import type { LogEvent } from 'kysely';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MailOutcome, Metrics, RateLimiterName } from '../../core/platform/metrics';
import type { DeliveryQueue } from '../../core/webhooks';
import { type AttemptOutcome, attemptOutcomes } from '../../db/values';
import { processMetrics } from './process-metrics';

/** 1 ms to 10 s: a read answers in a few ms, an import or an export may take seconds. */
const requestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** 0.1 ms to 2.5 s: most statements take well under a millisecond on SQLite. */
const queryBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5];

const limiters: RateLimiterName[] = [
  'key',
  'authFailure',
  'signUpAddress',
  'signUpEmail',
  'ticketMiss',
  'oauthRegistration',
];
const mailOutcomes: MailOutcome[] = ['sent', 'retrying', 'failed', 'cancelled'];
const queueStages = ['outbox', 'due', 'scheduled'] as const;

export class ServerMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'tessera_requests_total',
    help: 'Requests answered, by operation (or route) and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'tessera_request_duration_seconds',
    help: 'Time from the request to its answer, by operation (or route).',
    labelNames: ['operation'] as const,
    buckets: requestBuckets,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'tessera_rate_limited_total',
    help: 'Calls refused by a rate limiter, by limiter.',
    labelNames: ['limiter'] as const,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'tessera_webhook_deliveries_total',
    help: 'Webhook and callback delivery attempts, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly mails = new Counter({
    name: 'tessera_emails_total',
    help: 'E-mail attempts, by outcome (retrying: a temporary failure, tried again later).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly querySeconds = new Histogram({
    name: 'tessera_database_query_duration_seconds',
    help: 'Time each database statement took.',
    buckets: queryBuckets,
    registers: [this.registry],
  });
  private queue: (() => Promise<DeliveryQueue>) | null = null;
  private writesRanAgain: () => number = () => 0;
  /** One read of the queue serves both gauges of a scrape. */
  private reading: Promise<DeliveryQueue | null> | null = null;

  constructor() {
    // A failed read (the database down) leaves the gauges empty rather than failing the scrape.
    const read = (): Promise<DeliveryQueue | null> => {
      const queue = this.queue;
      if (!queue) return Promise.resolve(null);
      this.reading ??= queue()
        .catch(() => null)
        .finally(() => {
          this.reading = null;
        });
      return this.reading;
    };
    new Gauge({
      name: 'tessera_delivery_queue_depth',
      help: 'Webhook work waiting: messages not yet fanned out (outbox), deliveries due now (due), deliveries waiting for a retry (scheduled).',
      labelNames: ['stage'] as const,
      registers: [this.registry],
      async collect() {
        const queue = await read();
        this.reset();
        if (queue) for (const stage of queueStages) this.set({ stage }, queue[stage]);
      },
    });
    new Gauge({
      name: 'tessera_delivery_queue_oldest_age_seconds',
      help: 'How long the oldest waiting webhook work (a message not fanned out, a delivery due) has been overdue.',
      registers: [this.registry],
      async collect() {
        const queue = await read();
        this.reset();
        if (queue) this.set(queue.oldestAgeSeconds);
      },
    });
    const ranAgain = () => this.writesRanAgain();
    new Counter({
      name: 'tessera_writes_ran_again_total',
      help: 'Write transactions the database ended as a deadlock victim or a serialisation failure, run again whole: locks taken in crossing orders (two processes, say).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(ranAgain());
      },
    });
    // Every known series from the start at 0, so rates and alerts have a baseline.
    for (const limiter of limiters) this.refusals.inc({ limiter }, 0);
    for (const outcome of attemptOutcomes) this.deliveries.inc({ outcome }, 0);
    for (const outcome of mailOutcomes) this.mails.inc({ outcome }, 0);
  }

  /** Where the delivery queue is read from at scrape time (the services exist after the metrics). */
  watchQueue(read: () => Promise<DeliveryQueue>): void {
    this.queue = read;
  }

  /** Where the writes run again are counted (the write queue, which exists after the metrics). */
  watchWrites(ranAgain: () => number): void {
    this.writesRanAgain = ranAgain;
  }

  request(operation: string, status: number, seconds: number): void {
    this.requests.inc({ operation, status });
    this.requestSeconds.observe({ operation }, seconds);
  }

  /** Kysely's log option: every statement's duration. */
  readonly queryLog = (event: LogEvent): void => {
    this.querySeconds.observe(event.queryDurationMillis / 1000);
  };

  delivery(outcome: AttemptOutcome): void {
    this.deliveries.inc({ outcome });
  }

  mail(outcome: MailOutcome): void {
    this.mails.inc({ outcome });
  }

  rateLimited(limiter: RateLimiterName): void {
    this.refusals.inc({ limiter });
  }

  /** The text a scrape answers: this server's metrics, then the process's. */
  async scrape(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
