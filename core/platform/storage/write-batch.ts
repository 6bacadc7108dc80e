// Group commit: writes that arrive while others are being committed share the next transaction,
// so concurrent callers (eight door scanners, say) pay one commit between them. Each write of a
// shared batch runs in a savepoint of its own: a refusal rolls back only that write, the others
// commit, and nothing ever runs twice. A batch of one needs no savepoint.
//
// The server keeps one batch in flight (src/services.ts says why). PostgreSQL can take several
// writers: with `writeLanes(n)` up to n transactions are in flight, each a write of its own (maxBatch 1), so a write waiting on a row lock holds up only itself, and the
// locks a transaction takes are those of one write, in that write's order (no batch takes two
// writes' rows in an order another batch reverses). Should two transactions still meet in a circle
// (two processes, an unforeseen path), the database ends one as a deadlock's victim; nothing of it
// was written, so the whole batch runs again.
import type { Db } from '../../../db/connect';
import { lostToConcurrentWrite } from '../../../db/errors';
import { withSavepoint } from './savepoint';

/** Attempts of a batch the database picked as a deadlock's victim. */
const attempts = 4;

type Work = (trx: Db) => Promise<unknown>;

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

export class WriteBatcher {
  private readonly queue: Job[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly shape: WriteLanes = oneWriter,
  ) {}

  /** Runs `work` in a transaction (shared with other writes queued at the same time). */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
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
      try {
        await this.db.transaction().execute(async (trx) => {
          if (batch.length === 1) {
            outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
            return;
          }
          for (const job of batch) {
            try {
              outcomes.push({ ok: true, value: await withSavepoint(trx, () => job.work(trx)) });
            } catch (error) {
              // Lost to another process's transaction: the whole batch runs again (below).
              if (lostToConcurrentWrite(error)) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        });
      } catch (error) {
        if (attempt < attempts && lostToConcurrentWrite(error)) {
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
}

/**
 * The lanes for a store taking `writers` transactions at once: one writer batches what queues behind
 * it; several each carry one write (see above).
 */
export function writeLanes(writers: number): WriteLanes {
  return writers <= 1 ? oneWriter : { lanes: writers, maxBatch: 1 };
}
