import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { noInput } from '../platform/schemas';
import { loadStripeConnection, stripeConnectionSchema, stripeConnectionView } from './stripe-connection';

export const disconnectStripe = defineOperation({
  name: 'disconnectStripe',
  title: 'Disconnect Stripe',
  description:
    "Removes the workspace's Stripe connection: its key and signing secret deleted, card payments no longer offered, Stripe's events no longer taken (payments made stay in Stripe). Answers the connection as it now is. Needs finance:write.",
  scope: 'finance:write',
  effect: 'destructive',
  extension: true,
  repeatable: true,
  activity: { resourceType: 'stripeConnection', resourceId: (_input, _answer, ctx) => ctx.actor.workspaceId },
  problems: [],
  input: noInput,
  output: stripeConnectionSchema,
  async handler(ctx) {
    const current = await loadStripeConnection(ctx.db, ctx.actor.workspaceId);
    if (!current) return unchanged(stripeConnectionView(ctx, undefined));
    await ctx.db.deleteFrom('stripe_connections').where('workspace_id', '=', ctx.actor.workspaceId).execute();
    return stripeConnectionView(ctx, undefined);
  },
});
