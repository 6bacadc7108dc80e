// Group commit: writes that arrive while others are being committed share the next transaction,
// so concurrent callers (eight door scanners, say) pay one commit between them. When any write of
// a batch fails, the whole batch is rolled back and each write runs again in a transaction of its
// own: a refusal never undoes another request's change, and nothing is ever half-written.
import type { Db } from '../../db/connect';

type Work = (trx: Db) => Promise<unknown>;

interface Job {
  work: Work;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

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
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        if (batch.length === 1 || !(await this.together(batch))) {
          for (const job of batch) await this.alone(job);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async together(batch: Job[]): Promise<boolean> {
    const results: unknown[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const job of batch) results.push(await job.work(trx));
      });
    } catch {
      return false;
    }
    for (const [i, job] of batch.entries()) job.resolve(results[i]);
    return true;
  }

  private async alone(job: Job): Promise<void> {
    try {
      job.resolve(await this.db.transaction().execute((trx) => job.work(trx)));
    } catch (error) {
      job.reject(error);
    }
  }
}
