// Call counters every process on one PostgreSQL database shares: a key's limit holds however its
// calls are spread over the processes. One statement per call counts it and answers the window
// (rate_windows, migration 0017). On SQLite one process serves the file, so its counters stay in
// memory (rate-counter.ts), off the database's one writer.
import { sql } from 'kysely';
import type { Db } from '../../../db/connect';
import { isPostgres } from '../../../db/dialect';
import { type Placeholders, type Prepared, prepare } from '../../../db/prepared';
import {
  type CountedCall,
  decisionOf,
  RateCounter,
  type RateDecision,
  type RateLimiter,
} from './rate-counter';

/** endedBy: a window that started then or before has ended; count: the calls counted now. */
type Take = { key: string; nowMs: number; endedBy: number; count: number };

// A window that ended starts again with this call; otherwise the call is added to it.
const countingCall = (db: Db, p: Placeholders<Take>) => {
  const ended = sql<boolean>`rate_windows.started_ms <= ${p.endedBy}`;
  return db
    .insertInto('rate_windows')
    .values({ key: p.key, started_ms: p.nowMs, used: p.count })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        started_ms: sql`case when ${ended} then ${p.nowMs} else rate_windows.started_ms end`,
        used: sql`case when ${ended} then ${p.count} else rate_windows.used + ${p.count} end`,
      }),
    );
};
const countCall = prepare<Take, { started_ms: number; used: number }>((db, p) =>
  countingCall(db, p).returning(['started_ms', 'used']),
);
// The same, answering the key generation too: the statement's snapshot reads it as a statement of
// its own before would.
const countCallReadingGeneration = prepare<Take, { started_ms: number; used: number; generation: number }>(
  (db, p) =>
    countingCall(db, p).returning((eb) => [
      'started_ms',
      'used',
      eb.selectFrom('key_generation').select('value').where('id', '=', 1).as('generation'),
    ]),
);

const sweepEvery = 1_000;

export class SharedRateCounter implements RateLimiter {
  private calls = 0;

  constructor(
    private readonly db: Db,
    /** What is counted (key, address, ...), so counters of different purposes never meet. */
    private readonly purpose: string,
    readonly windowSeconds = 60,
  ) {}

  async take(key: string, limit: number, now: Date, count = 1): Promise<RateDecision> {
    const row = await this.count(countCall, key, now, count);
    // Refused calls are counted too here; the decision is the same (used past the limit refuses).
    return decisionOf(row.started_ms, row.used, limit, now.getTime(), this.windowSeconds);
  }

  async countReadingGeneration(key: string, now: Date): Promise<CountedCall> {
    const row = await this.count(countCallReadingGeneration, key, now);
    return { startedMs: row.started_ms, used: row.used, generation: row.generation };
  }

  private async count<R>(statement: Prepared<Take, R>, key: string, now: Date, count = 1): Promise<R> {
    const nowMs = now.getTime();
    this.calls += 1;
    if (this.calls % sweepEvery === 0) await this.sweep(now);
    const row = await statement.first(this.db, {
      key: `${this.purpose}:${key}`,
      nowMs,
      endedBy: nowMs - this.windowSeconds * 1000,
      count,
    });
    if (!row) throw new Error('rate_windows answered no row');
    return row;
  }

  /** Forgets windows that ended, so addresses seen once do not stay (also every 1,000 calls). */
  async sweep(now: Date): Promise<void> {
    await this.db
      .deleteFrom('rate_windows')
      .where('key', 'like', `${this.purpose}:%`)
      .where('started_ms', '<=', now.getTime() - this.windowSeconds * 1000)
      .execute();
  }
}

/** A counter for one purpose: shared through the database on PostgreSQL, in memory on SQLite. */
export function rateCounterFor(db: Db, purpose: string, windowSeconds = 60): RateLimiter {
  return isPostgres(db) ? new SharedRateCounter(db, purpose, windowSeconds) : new RateCounter(windowSeconds);
}
