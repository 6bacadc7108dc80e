import { defineOperation } from '../platform/pipeline/operation';
import { noInput } from '../platform/schemas';
import { loadStripeConnection, stripeConnectionSchema, stripeConnectionView } from './stripe-connection';

export const getStripeConnection = defineOperation({
  name: 'getStripeConnection',
  title: 'Get the Stripe connection',
  description:
    "Returns the workspace's Stripe connection: whether it is connected, the account, test or live mode, the key's last four characters (never the key), whether the webhook signing secret is set, and the webhook address with the events to register in Stripe's dashboard. Needs finance:read.",
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
