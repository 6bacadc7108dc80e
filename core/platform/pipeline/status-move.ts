// The one way a row of the event changes status (an expense claim approved, a stay assigned, a
// journey cancelled): refused with 409 statusNotAllowed, naming the status, unless the row is in one
// of the statuses the move starts from; then one update conditional on those statuses, so of two
// moves at once only one moves the row (and sends its message), and the other answers as the row
// now stands.
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import { problem } from '../problems';
import { missingEventRow } from './load-event-row';
import { updateEventRow } from './update-row';

/** The tables whose rows have an id and a status. */
type StatusTable = {
  [T in keyof Database]: Selectable<Database[T]> extends { id: unknown; status: string } ? T : never;
}[keyof Database];

type StatusOf<T extends StatusTable> =
  Selectable<Database[T]> extends { status: infer S extends string } ? S : never;

/** 409 statusNotAllowed, naming the status, when the row is in none of the allowed ones. */
export function requireStatus<S extends string>(
  row: { status: S },
  allowed: readonly S[],
  /** The row as the refusal names it: "claim", "stay", "journey". */
  called: string,
  /** What the move does to it, for the refusal: "A paid claim cannot be {action}." */
  action: string,
): void {
  if (allowed.includes(row.status)) return;
  throw problem('statusNotAllowed', `A ${row.status} ${called} cannot be ${action}.`, {
    currentStatus: row.status,
  });
}

export interface StatusMove<T extends StatusTable> {
  table: T;
  /** The row as read by the call. */
  row: { id: string; status: StatusOf<T> };
  /** The row as the refusal names it ("claim"). */
  called: string;
  /** The row as a 404 names it, when it is gone meanwhile ("expense claim"); `called` by default. */
  what?: string;
  from: readonly StatusOf<T>[];
  /** Said of the row when refused: "A paid claim cannot be {action}." */
  action: string;
  /** The new status, its stamps and whatever else the move writes. */
  changes: Updateable<Database[T]>;
}

/**
 * Moves the row as `changes` say when it is in one of the `from` statuses, checked before and in
 * the update itself; a row another call moved meanwhile is refused naming the status it now has.
 */
export async function moveStatus<T extends StatusTable>(ctx: Ctx, move: StatusMove<T>): Promise<void> {
  const { table, row, called, from, action } = move;
  requireStatus(row, from, called, action);
  const moved = await updateEventRow(ctx, table, row.id, move.what ?? called, move.changes, {
    // Any status table, by its name: the move's types hold its statuses.
    onlyIf: (update) =>
      (update as unknown as StatusUpdate).where('status', 'in', from) as unknown as typeof update,
  });
  if (moved) return;
  const now = await (ctx.db as unknown as Kysely<Record<string, { id: string; status: string }>>)
    .selectFrom(table as string)
    .select('status')
    .where('id', '=', row.id)
    .executeTakeFirst();
  if (!now) throw missingEventRow(move.what ?? called, row.id);
  requireStatus(now as { status: StatusOf<T> }, from, called, action);
}

/** The one condition a status move adds to its update. */
interface StatusUpdate {
  where(column: 'status', op: 'in', statuses: readonly string[]): unknown;
}
