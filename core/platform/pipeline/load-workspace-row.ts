// A row that belongs to the workspace itself (an endpoint, a subscription, a community), found only in the
// caller's workspace: another workspace's id answers 404 notFound as if it did not exist. Locked on
// PostgreSQL as `lock` says (load-event-row.ts RowLock).
import type { Selectable } from 'kysely';
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import { type Problem, type ProblemCode, problem } from '../problems';
import { lockedAs, type RowLock } from './load-event-row';

type WorkspaceRowTable = 'webhooks' | 'hooks' | 'communities';

export async function loadWorkspaceRow<T extends WorkspaceRowTable>(
  ctx: Ctx,
  table: T,
  id: string,
  what: string,
  lock?: RowLock,
): Promise<Selectable<Database[T]>> {
  const query = ctx.db
    .selectFrom(table as WorkspaceRowTable)
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', '=', ctx.actor.workspaceId);
  const row = await lockedAs(ctx.db, query, lock).executeTakeFirst();
  if (!row) throw missingWorkspaceRow(what, id);
  return row as Selectable<Database[T]>;
}

/** The problem for a row that is not in the workspace: notFound, or the code an operation answers instead (eventNotFound). */
export function missingWorkspaceRow(what: string, id: string, code: ProblemCode = 'notFound'): Problem {
  return problem(code, `No ${what} ${id} in this workspace.`);
}
