// Group commit: writes that arrive while others are being committed share the next transaction,
// so concurrent callers (eight door scanners, say) pay one commit between them. Each write of a
// shared batch runs in a savepoint of its own: a refusal rolls back only that write, the others
// commit, and nothing ever runs twice. A batch of one needs no savepoint.
//
// On PostgreSQL other processes write at the same time, and two batches may take the same rows'
// locks in opposite orders: the database then ends one as a deadlock's victim. Nothing of it was
// written, so the whole batch runs again.
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

export class WriteBatcher {
  private readonly queue: Job[] = [];
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 16,
  ) {}

  /** Runs `work` in a transaction (shared with other writes queued at the same time). */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxBatch));
    } finally {
      this.draining = false;
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
