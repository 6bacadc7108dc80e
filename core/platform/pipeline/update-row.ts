// A change to a row the call read without a lock (loadEventRow, loadSponsor, loadWebhook, ...).
// On PostgreSQL several write transactions run at once (read committed), so another request may
// remove the row between that read and this change: the update then waits for the removal's row
// lock and finds nothing. The update itself says so (no row changed), and the call answers what it
// answers for a row that is not there (404 notFound, "No sponsor X at this event."), rather than a
// fault or the view of a row that is gone; thrown, the problem rolls the whole call back. Nothing
// is locked earlier than before, so locks are taken in the same order as before. SQLite writes one
// transaction at a time, so there the row read is still there. A removal of a row read without a
// lock (deleteEventRow) answers the same way when another removal went first.
import type { Kysely, Updateable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import type { Problem, ProblemCode } from '../problems';
import { changingOwnEvent } from './load-event';
import { missingEventRow } from './load-event-row';
import { missingWorkspaceRow } from './load-workspace-row';

/** The tables whose rows have an id of their own. */
type RowTable = { [T in keyof Database]: Database[T] extends { id: unknown } ? T : never }[keyof Database];

type RowUpdate<T extends RowTable> = UpdateQueryBuilder<Database, T, T, UpdateResult>;

/** Any table by its name: rows with an id, and columns whose types the callers' own types hold. */
type RowTables = Record<string, { id: string; [column: string]: unknown }>;

export interface RowChange<T extends RowTable> {
  /**
   * A condition besides the row being there (a capacity not below the places taken, say), in the
   * update itself: a row that fails it is left as it is and the answer is false, for the caller's
   * own problem.
   */
  onlyIf?: (update: RowUpdate<T>) => RowUpdate<T>;
  /** The code for a row that is gone, where the operation answers another than notFound (noDoor). */
  code?: ProblemCode;
}

/**
 * Writes `changes` to the row `id` of `table`, one of the event's: a row gone meanwhile answers
 * "No {what} {id} at this event." True once changed; false only when `onlyIf` left it as it is.
 */
export function updateEventRow<T extends RowTable>(
  ctx: Ctx,
  table: T,
  id: string,
  what: string,
  changes: Updateable<Database[T]>,
  change: RowChange<T> = {},
): Promise<boolean> {
  return updateOrGone(ctx, table, id, changes, change, () => missingEventRow(what, id, change.code));
}

/** As updateEventRow, for a row of the workspace itself: "No {what} {id} in this workspace." */
export function updateWorkspaceRow<T extends RowTable>(
  ctx: Ctx,
  table: T,
  id: string,
  what: string,
  changes: Updateable<Database[T]>,
  change: RowChange<T> = {},
): Promise<boolean> {
  if (table === 'events') changingOwnEvent(ctx, id);
  return updateOrGone(ctx, table, id, changes, change, () => missingWorkspaceRow(what, id, change.code));
}

async function updateOrGone<T extends RowTable>(
  ctx: Ctx,
  table: T,
  id: string,
  changes: Updateable<Database[T]>,
  { onlyIf }: RowChange<T>,
  gone: () => Problem,
): Promise<boolean> {
  // Any table with an id, by its name: the callers' types hold the changes to their table's columns.
  const db = ctx.db as unknown as Kysely<RowTables>;
  const name: string = table;
  const update = db.updateTable(name).set(changes).where('id', '=', id) as unknown as RowUpdate<T>;
  const { numUpdatedRows } = await (onlyIf ? onlyIf(update) : update).executeTakeFirst();
  if (Number(numUpdatedRows) > 0) return true;
  // Without a condition no row changed means none is there; with one, it may be there and fail it.
  const there = onlyIf && (await db.selectFrom(name).select('id').where('id', '=', id).executeTakeFirst());
  if (!there) throw gone();
  return false;
}

/**
 * Removes the row `id` of `table`, one of the event's, read without a lock: should another call
 * have removed it since (on PostgreSQL this delete waits for that one and finds nothing), the
 * removal answers "No {what} {id} at this event." as it would a moment later, not deleted again.
 */
export function deleteEventRow(
  ctx: Ctx,
  table: RowTable,
  id: string,
  what: string,
  code?: ProblemCode,
): Promise<void> {
  return deleteOrGone(ctx, table, id, () => missingEventRow(what, id, code));
}

/** As deleteEventRow, for a row of the workspace itself: "No {what} {id} in this workspace." */
export function deleteWorkspaceRow(ctx: Ctx, table: RowTable, id: string, what: string): Promise<void> {
  return deleteOrGone(ctx, table, id, () => missingWorkspaceRow(what, id));
}

async function deleteOrGone(ctx: Ctx, table: RowTable, id: string, gone: () => Problem): Promise<void> {
  const db = ctx.db as unknown as Kysely<Record<string, { id: string }>>;
  const name: string = table;
  const { numDeletedRows } = await db.deleteFrom(name).where('id', '=', id).executeTakeFirst();
  if (Number(numDeletedRows) === 0) throw gone();
}
