import { defineOperation } from '../platform/pipeline/operation';
import { noInput } from '../platform/schemas';
import { loadStripeConnection, stripeConnectionSchema, stripeConnectionView } from './stripe-connection';

export const getStripeConnection = defineOperation({
  name: 'getStripeConnection',
  title: 'Get the Stripe connection',
  description:
    "The workspace's Stripe connection: connected or not, the account, test or live mode, the key's last four characters, whether a webhook signing secret is set, and the webhook address and events to register at Stripe. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: noInput,
  output: stripeConnectionSchema,
  async handler(ctx) {
    return stripeConnectionView(ctx, await loadStripeConnection(ctx.db, ctx.actor.workspaceId));
  },
});
