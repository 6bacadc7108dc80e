// The row a conditional resource's entity tag names, held by invoke on PostgreSQL before the write
// reads it, a tag sent or not. Two writes sent one tag at once both passed a check read without a
// lock; the second then waited on the first's row lock in its handler and wrote over the first
// instead of answering 412. And a change that writes its row back whole from its read (a PATCH)
// lost another's change made meanwhile. Held as the write will hold it, the second waits, then reads
// the first's change: refused, or kept. SQLite writes one call at a time, its reads included, so
// invoke holds nothing there.
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import { lockedAs, type RowLock } from './load-event-row';

/** The tables whose rows are named by an `id`. */
type TableWithId = {
  [T in keyof Database]: Database[T] extends { id: unknown } ? T : never;
}[keyof Database];

/**
 * Takes the locks a conditional resource's write takes on what its tag names, in the write's lock order
 * (docs/architecture.md), `lock` being its kind: 'removal' for a destructive write, else 'change'
 * (operation.ts IfMatch.hold).
 */
export type TagHold<I> = (ctx: Ctx, input: I, lock: RowLock) => Promise<unknown>;

/**
 * The hold of one row of `table`, named by the id `idOf` reads from the input: for a write that locks
 * that row before anything else it writes (after its event's hold). A row not there holds nothing;
 * the view's loader then answers its not-found.
 */
export function heldRow<I>(table: TableWithId, idOf: (input: I) => string): TagHold<I> {
  return (ctx, input, lock) =>
    lockedAs(
      ctx.db,
      ctx.db
        .selectFrom(table as 'events')
        .select('id')
        .where('id', '=', idOf(input)),
      lock,
    ).execute();
}
