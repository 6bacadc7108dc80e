// Group commit: writes that arrive while others are being committed share the next transaction,
// so concurrent callers (eight door scanners, say) pay one commit between them. Each write of a
// shared batch runs in a savepoint of its own: a refusal rolls back only that write, the others
// commit, and nothing ever runs twice. A batch of one needs no savepoint.
//
// SQLite has one writer, so one batch is in flight at a time. PostgreSQL takes several writers:
// with `writeLanes(n)` (src/services.ts, TESSERA_DB_CONNECTIONS) up to n transactions are in
// flight, each a write of its own (maxBatch 1), so a write waiting on a row lock holds up only
// itself, and the locks a transaction takes are those of one write, in that write's order (no
// batch takes two writes' rows in an order another batch reverses). Should two transactions still meet in a circle
// (two processes, an unforeseen path), the database ends one as a deadlock's victim; nothing of it
// was written, so the whole batch runs again.
//
// Each write gets its moment: one reading of the clock, taken when the write starts, that it stamps
// on every row it changes (updatedUtc and the like). With several in flight, the transaction takes
// its change position (db/sequence.ts) and its moment together, one transaction after another, so a
// later change position never carries an earlier time. A change hidden from a page until its
// transaction settles then never has an updatedUtc below one the page showed, and an integration
// passing the newest updatedUtc it saw as updatedSince misses nothing.
//
// Read your writes: a change shows on such a page once every transaction that took its position
// earlier has ended. A write is answered as soon as it commits (a write waiting on a lock still
// holds up only itself); a page of the feed (and a long export's snapshot) waits first for the
// transactions in flight that took their position before one already ended (`earlierWritesEnded`,
// core/platform/pipeline/invoke.ts; 5 s at most), so a client that lists after an answer finds its
// change however slow the moment. Transactions of other processes (and of other
// databases of the cluster: transaction ids are the cluster's) can still hold a change back a
// moment; docs/deployment.md says so.
import type { Db } from '../../../db/connect';
import { lostToConcurrentWrite } from '../../../db/errors';
import { takeChangePosition } from '../../../db/sequence';
import { type Clock, frozenAt, systemClock } from '../clock';
import { withSavepoint } from './savepoint';

/** Attempts of a batch that lost to another transaction (a deadlock's victim, core's runAgain). */
export const writeAttempts = 4;

/** A write: its transaction, and its moment (a clock that answers the time the write started). */
type Work = (trx: Db, moment: Clock) => Promise<unknown>;

interface Job {
  work: Work;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface WriteLanes {
  /** Transactions in flight at once: 1 on SQLite (one writer). */
  lanes: number;
  /** Writes sharing one transaction at most. */
  maxBatch: number;
}

/** SQLite's: one writer, group commit of up to 16 writes. */
export const oneWriter: WriteLanes = { lanes: 1, maxBatch: 16 };

/**
 * How long a page waits at most for a write in flight below a change already answered. Writes take
 * milliseconds; one waits that long only on another process's lock. Generous so a slow moment (a
 * loaded machine) never shows a client a page without its own write.
 */
export const pageWaitsAtMostMs = 5_000;

/** A transaction in line: its turn (the order of change positions) and its end. */
interface InLine {
  turn: number;
  ends: Promise<void>;
}

export class WriteBatcher {
  private readonly queue: Job[] = [];
  private inFlight = 0;
  /** The last transaction's start (change position and moment) in line; the next one waits for it. */
  private starting: Promise<unknown> = Promise.resolve();
  /** Transactions that took their change position and have not ended, in the order they took it. */
  private readonly inLine: InLine[] = [];
  /** How many transactions have taken their change position (each one's turn in line). */
  private turnsTaken = 0;
  /** The latest turn in line of a transaction that has ended (0: none yet). */
  private latestEnded = 0;
  /**
   * Transactions the database ended as a deadlock's victim (or a serialisation failure) and that ran
   * again: the operator's metric of locks taken in crossing orders, and the race tests' proof of none.
   */
  ranAgain = 0;

  constructor(
    private readonly db: Db,
    private readonly shape: WriteLanes = oneWriter,
    private readonly clock: Clock = systemClock,
    /** How long a page waits at most for the writes it must show (earlierWritesEnded). */
    private readonly pageWaitsMs = pageWaitsAtMostMs,
  ) {}

  /**
   * Runs `work` in a transaction (shared with other writes queued at the same time). `moment` is the
   * write's clock: rows it stamps with it line up with their change positions (see above). `ahead`
   * puts it before the writes waiting: the second write of a request whose first has committed
   * (a card order's Checkout session), which would otherwise wait behind every request arriving
   * meanwhile, in an on-sale rush for seconds.
   */
  run<T>(
    work: (trx: Db, moment: Clock) => Promise<T>,
    { ahead = false }: { ahead?: boolean } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = { work, resolve: resolve as (value: unknown) => void, reject };
      if (ahead) this.queue.unshift(job);
      else this.queue.push(job);
      if (this.inFlight < this.shape.lanes) void this.drain();
    });
  }

  /** One lane: commits batches from the queue until it is empty. */
  private async drain(): Promise<void> {
    this.inFlight += 1;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.shape.maxBatch));
    } finally {
      this.inFlight -= 1;
    }
  }

  private async commit(batch: Job[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const outcomes: Outcome[] = [];
      const thisEnds = deferred();
      try {
        const transaction = this.db.transaction().execute(async (trx) => {
          let first: Clock;
          if (this.shape.lanes > 1) first = await this.startInLine(trx, thisEnds.promise);
          else first = this.momentNow();
          if (batch.length === 1) {
            outcomes.push({ ok: true, value: await batch[0]!.work(trx, first) });
            return;
          }
          for (const [i, job] of batch.entries()) {
            try {
              const moment = i === 0 ? first : this.momentNow();
              outcomes.push({ ok: true, value: await withSavepoint(trx, () => job.work(trx, moment)) });
            } catch (error) {
              // Lost to another process's transaction: the whole batch runs again (below).
              if (lostToConcurrentWrite(error)) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        });
        await transaction.finally(thisEnds.resolve);
      } catch (error) {
        if (attempt < writeAttempts && lostToConcurrentWrite(error)) {
          this.ranAgain += 1;
          // Nothing of it was written. A moment apart, so the two do not meet again the same way.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
          continue;
        }
        // The transaction did not commit: a write of its own failed (a batch of one), or the commit
        // did. Either way nothing of the batch is written; each caller learns why.
        batch.forEach((job, i) => {
          const own = outcomes[i];
          job.reject(own && !own.ok ? own.error : error);
        });
        return;
      }
      batch.forEach((job, i) => {
        const own = outcomes[i]!;
        if (own.ok) job.resolve(own.value);
        else job.reject(own.error);
      });
      return;
    }
  }

  /**
   * Several in flight: once the previous transaction's change position is taken, this one reads its
   * moment and takes its own position; the next waits until the server gave it. Moments and positions
   * then rise together. The position reaches the server with the transaction's first statement and
   * is answered ahead of it (db/deferred-statements.ts), so the write starts at once and the next
   * one's turn comes even while that statement waits on a lock. `ends` resolves when this transaction ends
   * (earlierWritesEnded). One writer commits in order anyway.
   */
  private startInLine(trx: Db, ends: Promise<void>): Promise<Clock> {
    const started = this.starting.then(async () => {
      const moment = this.momentNow();
      const { taken } = await takeChangePosition(trx);
      this.turnsTaken += 1;
      const entry: InLine = { turn: this.turnsTaken, ends };
      this.inLine.push(entry);
      void ends.then(() => {
        this.inLine.splice(this.inLine.indexOf(entry), 1);
        this.latestEnded = Math.max(this.latestEnded, entry.turn);
      });
      return { moment, taken };
    });
    this.starting = started.then(({ taken }) => taken).catch(() => undefined);
    return started.then(({ moment }) => moment);
  }

  /**
   * Resolves once every transaction still in flight that took its change position before one that
   * has ended has ended too (at once with one writer, which takes none): a page of the feed read
   * then shows every change answered before it was asked for, since only a transaction below a
   * change holds it back. Those in line after every ended one hold back nothing answered, and are
   * not waited for. The bound (pageWaitsAtMostMs) keeps a write waiting long on a lock (another
   * process's) from holding pages up for as long; such a page lacks the changes above it.
   */
  async earlierWritesEnded(): Promise<void> {
    const below = this.inLine.filter((t) => t.turn < this.latestEnded).map((t) => t.ends);
    if (below.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(below),
      new Promise((resolve) => (timer = setTimeout(resolve, this.pageWaitsMs))),
    ]);
    clearTimeout(timer);
  }

  /** The clock frozen at this instant: the moment of the write about to run. */
  private momentNow(): Clock {
    return frozenAt(this.clock.now());
  }
}

/** A promise and its resolver, for a transaction's end. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The lanes for a store taking `writers` transactions at once: one writer batches what queues behind
 * it; several each carry one write (see above).
 */
export function writeLanes(writers: number): WriteLanes {
  return writers <= 1 ? oneWriter : { lanes: writers, maxBatch: 1 };
}
