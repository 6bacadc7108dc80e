// A read that can take long with the data (a whole export, every page of a list): it runs in
// bounded steps on a snapshot of its own (db/read-snapshot.ts), and gives the event loop back
// between steps, so the calls waiting behind it are answered after one step, not after the whole.
// Why steps rather than all of it on a worker thread: each step goes through the list operation of
// the API as it is (its scope, module and personal-data rules, its views), on this thread, so the
// rows are the list's byte for byte; a thread would need its own copy of core and its own services.
// On SQLite the steps' statements themselves run on the reading thread (db/reading-thread.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Ctx } from '../context';

/**
 * The rows a step reads. Measured in one process at 100,000 attendees (a loaded 2-core machine),
 * a CSV export's step held the loop a median 9–39 ms at 500 rows, 7–9 ms at 100 and 1.5–1.8 ms
 * at 50, and the whole export took as long at each size.
 */
export const rowsAStep = 50;

/**
 * The steps `read` gives, each read in the same snapshot and each begun on a turn of the event
 * loop of its own (a setImmediate), so no turn reads more than one step. The snapshot ends when
 * the steps end, fail or are abandoned.
 */
export async function* inSteps<T>(ctx: Ctx, read: (reader: Ctx) => AsyncIterable<T>): AsyncGenerator<T> {
  // Its snapshot shows what the client was answered before it asked (read your writes, as a page).
  await ctx.services.writes.earlierWritesEnded();
  const snapshot = await ctx.services.snapshot();
  try {
    // A call of its own (a new context): nothing read by the call that began it is reused.
    const reader: Ctx = { ...ctx, db: snapshot.db };
    const steps = read(reader)[Symbol.asyncIterator]();
    try {
      for (;;) {
        await nextTurn();
        const step = await steps.next();
        if (step.done) return;
        yield step.value;
      }
    } finally {
      await steps.return?.();
    }
  } finally {
    await snapshot.release();
  }
}
