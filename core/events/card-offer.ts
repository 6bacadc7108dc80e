// Card payments are offered only once the workspace is connected to Stripe (core/payments keeps the
// connection): an event set to offer them (card or both) is refused before then, saying how to
// connect. Read from the connection's table here, as core/payments sits above events.
import type { PaymentMethodsOffered } from '../../db/values';
import type { Ctx } from '../platform/context';
import { detail, mention } from '../platform/mentions';
import { problem } from '../platform/problems';

/** The operation that connects Stripe (core/payments, above this area: named, not imported). */
const connectStripe = { name: 'connectStripe', title: 'Connect Stripe' };

/** Whether these methods include card. */
export function offersCard(methods: PaymentMethodsOffered): boolean {
  return methods === 'card' || methods === 'both';
}

/** 409 stripeNotConnected when the methods include card and the caller's workspace has no Stripe connection. */
export async function requireStripeForCard(ctx: Ctx, methods: PaymentMethodsOffered): Promise<void> {
  if (offersCard(methods))
    await requireStripeConnected(ctx, `paymentMethods ${methods} offers card payments, which need`);
}

/** 409 stripeNotConnected, saying what needed it, when the caller's workspace has no Stripe connection. */
export async function requireStripeConnected(ctx: Ctx, whatNeeds: string): Promise<void> {
  if (await stripeConnected(ctx, ctx.actor.workspaceId)) return;
  throw problem(
    'stripeNotConnected',
    detail`${whatNeeds} the workspace connected to Stripe first: ${mention(connectStripe)} with its secret key.`,
  );
}

/** Whether a workspace is connected to Stripe (its events may take cards only then). */
async function stripeConnected(ctx: Pick<Ctx, 'db'>, workspaceId: string): Promise<boolean> {
  const connected = await ctx.db
    .selectFrom('stripe_connections')
    .select('workspace_id')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return connected !== undefined;
}
