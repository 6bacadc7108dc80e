import * as v from 'valibot';
import { defineOperation } from '../platform/operation';
import { int32 } from '../platform/schemas';
import { maxEndpoints, webhookSchema, webhookView } from './webhook-view';

export const listWebhooks = defineOperation({
  name: 'listWebhooks',
  title: 'List webhook endpoints',
  description: `Lists the workspace's webhook endpoints, newest first: address (its query part hidden), the event types each receives, whether it is switched on (and why it stopped, if it did by itself), how its last delivery went, and most, the most endpoints a workspace may have (${maxEndpoints}). Needs webhooks:read.`,
  scope: 'webhooks:read',
  effect: 'read',
  problems: [],
  input: v.object({}),
  output: v.object({
    data: v.array(webhookSchema),
    most: int32('The most endpoints a workspace may have.'),
  }),
  async handler(ctx) {
    const rows = await ctx.db
      .selectFrom('webhooks')
      .selectAll()
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .orderBy('created_utc', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { data: rows.map(webhookView), most: maxEndpoints };
  },
});
