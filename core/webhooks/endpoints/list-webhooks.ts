import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { int32 } from '../../platform/schemas';
import { maxEndpoints, webhookSchema, webhookView } from './webhook-view';

export const listWebhooks = defineOperation({
  name: 'listWebhooks',
  title: 'List webhook endpoints',
  description:
    'Lists webhook endpoints: event types, whether on, last delivery. For Zapier, Make, n8n use list_hooks. Needs webhooks:read.',
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
