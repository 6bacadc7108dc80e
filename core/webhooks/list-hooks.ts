import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { hookSchema, hookView } from './hook-view';

export const listHooks = defineOperation({
  name: 'listHooks',
  title: 'List automation subscriptions',
  description:
    "Lists the workspace's automation subscriptions, newest first: the event type each receives, the one event it listens to (or every event), the platform that made it and whether it is active. The callback addresses are never returned. Needs webhooks:read.",
  scope: 'webhooks:read',
  effect: 'read',
  problems: [],
  input: v.object({}),
  output: v.object({ data: v.array(hookSchema) }),
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('hooks')
      .selectAll()
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .orderBy('created_utc', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { data: rows.map(hookView) };
  },
});
