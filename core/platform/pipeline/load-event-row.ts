// A row that belongs to an event (a room, a track, a ticket type, ...), found only at that event:
// another event's or workspace's id answers 404 notFound as if it did not exist.
// biome-ignore-all lint/suspicious/noExplicitAny: lockedAs takes a select of any table, as db/dialect.ts's locks do.
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from '../../../db/connect';
import { changingRow, lockingRow, referencedRow } from '../../../db/dialect';
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import { type Problem, type ProblemCode, problem } from '../problems';

/** The tables of rows that belong to an event by an `event_id` and are named by an `id`. */
type EventOwnedTable = {
  [T in keyof Database]: Database[T] extends { id: unknown; event_id: unknown } ? T : never;
}[keyof Database];

/**
 * How a read of a row is locked on PostgreSQL (db/dialect.ts): `change`, for a change checked against
 * its other columns (a start against the end), so another change of the row waits and the check sees
 * the row the update writes over (changingRow); `removal`, for a removal after counting its uses, so
 * a write adding a use waits or is seen (lockingRow); `reference`, for a write that will name the row
 * (a lead its sponsor), so a removal of it waits, or has removed it and the read finds nothing: the
 * call answers its not-found rather than fail on the foreign key (referencedRow).
 */
export type RowLock = 'change' | 'removal' | 'reference';

/** A select of one row, locked as `lock` says (none: not locked). */
export function lockedAs<QB extends SelectQueryBuilder<any, any, any>>(
  db: Db,
  query: QB,
  lock?: RowLock,
): QB {
  if (lock === 'change') return changingRow(db, query);
  if (lock === 'removal') return lockingRow(db, query);
  if (lock === 'reference') return referencedRow(db, query);
  return query;
}

/** The row at its event, locked as `lock` says. */
export async function loadEventRow<T extends EventOwnedTable>(
  ctx: Ctx,
  table: T,
  eventId: string,
  id: string,
  what: string,
  lock?: RowLock,
): Promise<Selectable<Database[T]>> {
  const query = ctx.db
    .selectFrom(table as 'ticket_types')
    .selectAll()
    .where('id', '=', id)
    .where('event_id', '=', eventId);
  const row = await lockedAs(ctx.db, query, lock).executeTakeFirst();
  if (!row) throw missingEventRow(what, id);
  return row as Selectable<Database[T]>;
}

/** The problem for a row that is not at the event: notFound, or the code an operation answers instead (noDoor). */
export function missingEventRow(what: string, id: string, code: ProblemCode = 'notFound'): Problem {
  return problem(code, `No ${what} ${id} at this event.`);
}

/**
 * Locks the row of `table` at the event for a change (db/dialect.ts changingRow) before a loader
 * reads it joined with others: a change or erasure of the row meanwhile is waited for, so a check
 * against the row sees the row the update writes over. The row alone: joined ones are not held.
 */
export async function lockForChange(
  ctx: Ctx,
  table: EventOwnedTable,
  eventId: string,
  id: string,
): Promise<void> {
  const own = ctx.db
    .selectFrom(table as 'attendees')
    .select('id')
    .where('id', '=', id)
    .where('event_id', '=', eventId);
  await changingRow(ctx.db, own).execute();
}

/**
 * Which of `ids` are rows of the event's `table`, held FOR KEY SHARE on PostgreSQL as a foreign key
 * would hold them (db/dialect.ts referencedRow): for a write naming them in a list, which has no
 * foreign key. A removal of one meanwhile waits and counts the write, or has removed it and it is
 * not among those answered (the write refuses it as not the event's).
 */
export async function heldEventIds(
  ctx: Ctx,
  table: EventOwnedTable,
  eventId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const query = ctx.db
    .selectFrom(table as 'attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .where('id', 'in', ids);
  return new Set((await referencedRow(ctx.db, query).execute()).map((r) => r.id));
}
