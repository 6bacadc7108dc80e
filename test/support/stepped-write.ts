// PostgreSQL: a write queue (for invoke, through the race harness's callThrough) whose one
// transaction goes step by step at the test's word, so which of two concurrent writes takes its
// transaction id, writes and commits first is decided by the test, not by timing. The transaction
// takes its id first, as the server's write lanes do (core/platform/storage/write-batch.ts).
import { type Kysely, sql } from 'kysely';
import { type Clock, frozenAt } from '../../core/platform/clock';
import type { WriteBatcher } from '../../core/platform/storage/write-batch';
import type { Db } from '../../db/schema';
import { signal } from './signal';

export interface SteppedWrite {
  writes: WriteBatcher;
  /** Resolves once the transaction has its id. */
  began: Promise<void>;
  /** The transaction id, once begun. */
  txn(): bigint;
  /** Fire to let the write run; `written` resolves when it has, the transaction still open. */
  go: { fire(): void };
  written: Promise<void>;
  /** Fire to let the transaction commit. */
  commit: { fire(): void };
}

/** `moment`: the write's clock (the time it stamps on its rows), as the write queue gives it. */
export function steppedWrite(store: Kysely<any>, moment: Date = new Date()): SteppedWrite {
  const began = signal();
  const go = signal();
  const written = signal();
  const commit = signal();
  let txn = 0n;
  const writes = {
    run: (work: (trx: Db, moment: Clock) => Promise<unknown>) =>
      store.transaction().execute(async (trx) => {
        // Read back: the write queue's own text would be held until a next statement (db/sequence.ts).
        const { rows } = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx);
        txn = BigInt(rows[0]!.id);
        began.fire();
        await go.fired;
        const out = await work(trx as Db, frozenAt(moment));
        written.fire();
        await commit.fired;
        return out;
      }),
  } as unknown as WriteBatcher;
  return { writes, began: began.fired, txn: () => txn, go, written: written.fired, commit };
}
