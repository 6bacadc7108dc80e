import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { hookSchema, hookView } from './hook-view';

export const listHooks = defineOperation({
  name: 'listHooks',
  title: 'List automation subscriptions',
  description:
    'Lists automation subscriptions (Zapier, Make, n8n). For signed endpoints use list_webhooks. Needs webhooks:read.',
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
