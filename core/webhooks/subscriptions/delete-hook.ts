import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { deleteWorkspaceRow } from '../../platform/pipeline/update-row';
import { uuid } from '../../platform/schemas';
import { requireScope } from '../../platform/scopes';
import { cancelPendingDeliveries } from '../delivery-state';
import { olderHookKeys } from '../subscription-rules';
import { loadHook } from './hook-view';

export const deleteHook = defineOperation({
  name: 'deleteHook',
  title: 'Unsubscribe a callback',
  description:
    'Removes an automation subscription. Needs webhooks:write (older keys: webhooks:read for their own).',
  scope: 'webhooks:write',
  olderKeys: olderHookKeys,
  effect: 'destructive',
  activity: { action: 'unsubscribe', resourceType: 'hook', resourceId: (_input, deleted) => deleted.hookId },
  repeatable: true,
  problems: ['notFound'],
  input: v.object({ hookId: uuid('The subscription id.') }),
  output: v.object({ hookId: uuid('The subscription removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    // The subscription before its deliveries, as its attempts' results take them (attempt-results.ts).
    const hook = await loadHook(ctx, input.hookId, 'removal');
    // invoke checked the scope the key makes subscriptions with; another key's needs webhooks:write.
    if (hook.api_key_id !== ctx.actor.keyId) requireScope(ctx.actor.scopes, 'webhooks:write');
    await cancelPendingDeliveries(ctx.db, ctx.clock, 'hook', [hook.id]);
    await deleteWorkspaceRow(ctx, 'hooks', hook.id, 'subscription');
    return { hookId: hook.id, deleted: true as const };
  },
});
