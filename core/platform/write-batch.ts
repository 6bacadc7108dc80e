// Every write's transaction. On SQLite, group commit: writes that arrive while others are being
// committed share the next transaction, so concurrent callers (eight door scanners, say) pay one
// commit between them. Each write of a shared batch runs in a savepoint of its own: a refusal rolls
// back only that write, the others commit, and nothing ever runs twice. A batch of one needs no
// savepoint.
//
// On PostgreSQL each write has a transaction of its own, begun at once: the database orders
// concurrent writers itself, here and in other processes. Unrelated writes sharing one transaction
// would hold each other's locks and, with another process doing the same in another order,
// deadlock. A transaction the database ends as a deadlock's victim runs again (it wrote nothing).
import type { Db } from '../../db/connect';
import { isPostgres } from '../../db/dialect';
import { lostToConcurrentWrite } from '../../db/errors';
import { withSavepoint } from './savepoint';

/** Attempts of a PostgreSQL write the database picked as a deadlock's victim. */
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

  private readonly alone: boolean;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 16,
  ) {
    this.alone = isPostgres(db);
  }

  /** Runs `work` in a transaction (on SQLite shared with other writes queued at the same time). */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    if (this.alone) return this.runAlone(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async runAlone<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction().execute(work);
      } catch (error) {
        if (attempt === attempts || !lostToConcurrentWrite(error)) throw error;
        // A moment apart, so the two do not meet again the same way.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
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
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
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
  }
}
