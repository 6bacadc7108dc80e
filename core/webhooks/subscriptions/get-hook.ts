import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { uuid } from '../../platform/schemas';
import { hookSchema, hookView, loadHook } from './hook-view';

export const getHook = defineOperation({
  name: 'getHook',
  title: 'Get an automation subscription',
  description:
    'Returns one automation subscription: event type, event, platform, active. Needs webhooks:read.',
  scope: 'webhooks:read',
  effect: 'read',
  problems: ['notFound'],
  input: v.object({ hookId: uuid('The subscription id.') }),
  output: hookSchema,
  async handler(ctx, input) {
    return hookView(await loadHook(ctx, input.hookId));
  },
});
