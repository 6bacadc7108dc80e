// The writes a call makes last: after its handler and its activity entry, just before the pipeline
// hands the transaction back to commit. A registration's places and its discount code's uses are
// such writes: on PostgreSQL every order of a ticket type waits on the type's row from the update
// that takes its places to its commit, so each statement sent between the two (the answer's read,
// the activity entry) is time every other buyer of the type waits too; in an on-sale rush those
// round trips, not the work, were what queued the buyers (docs/benchmarks.md, "On-sale rush").
// Outside a call of invoke (a handler called in process) a write runs at once. Private to the
// pipeline's call, like call-reads.ts: a context copied with changes ({ ...ctx, db }) writes at once.
import type { Ctx } from '../context';

type Write = () => Promise<void>;

const calls = new WeakMap<Ctx, Write[]>();

/** Starts the call's list of last writes (invoke, before the handler). */
export function beginLastWrites(ctx: Ctx): { run(): Promise<void> } {
  const writes: Write[] = [];
  calls.set(ctx, writes);
  return {
    async run() {
      calls.delete(ctx);
      for (const write of writes) await write();
    },
  };
}

/**
 * Makes `write` one of the call's last writes, in the order they were given; a refusal it throws
 * undoes the whole call as the handler's own would. At once outside a call.
 */
export async function writeLast(ctx: Ctx, write: Write): Promise<void> {
  const writes = calls.get(ctx);
  if (writes) writes.push(write);
  else await write();
}
