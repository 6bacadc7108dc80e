import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/** A pass of the caller's workspace; another workspace's pass answers 404 as if it did not exist. */
export async function loadPass(ctx: Ctx, passId: string) {
  const row = await ctx.db
    .selectFrom('passes')
    .selectAll()
    .where('id', '=', passId)
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No pass ${passId} in this workspace.`);
  return row;
}
