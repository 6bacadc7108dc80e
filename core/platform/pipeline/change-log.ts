// The workspace activity log: every change, under the name of the key that made it. Written in
// the change's own transaction (one insert there costs no extra commit).
import type { Ctx } from '../context';

export interface ChangeEntry {
  /** The operation's name, e.g. createEvent. */
  action: string;
  resourceType: string;
  resourceId: string;
  summary?: string;
}

export async function logChange(ctx: Ctx, entry: ChangeEntry): Promise<void> {
  await ctx.db
    .insertInto('workspace_activity')
    .values({
      workspace_id: ctx.actor.workspaceId,
      at_utc: ctx.clock.now().toISOString(),
      api_key_id: ctx.actor.keyId || null,
      actor_name: ctx.actor.keyName,
      action: entry.action,
      resource_type: entry.resourceType,
      resource_id: entry.resourceId,
      summary: entry.summary ?? null,
    })
    .execute();
}
