// A workspace's Stripe connection as the API shows it: which account, which mode, since when, and
// whether the webhook signing secret is set; never a secret, only the key's last four characters.
// Also the address the organiser registers in Stripe's dashboard and the events to select there.

import type { Selectable } from 'kysely';
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import type { StripeConnectionsTable } from '../../db/schema';
import { stripeModes } from '../../db/values';
import type { Ctx } from '../platform/context';
import { dateTime, text } from '../platform/schemas';

export type StripeConnectionRow = Selectable<StripeConnectionsTable>;

/** The Stripe events the webhook endpoint must send (docs/payments.md says to select these). */
export const stripeWebhookEvents = [
  'checkout.session.completed',
  'checkout.session.expired',
  'charge.refunded',
  'refund.created',
  'refund.updated',
] as const;

/** Where Stripe sends a workspace's events: the path below the service's origin. */
export function stripeWebhookPath(workspaceId: string): string {
  return `/api/v1/payments/stripe/webhook/${workspaceId}`;
}

const orNull = <T extends v.GenericSchema>(schema: T) => v.nullable(schema);

export const stripeConnectionSchema = v.object({
  connected: v.pipe(v.boolean(), v.description('Whether the workspace is connected to a Stripe account.')),
  accountId: orNull(
    text('The Stripe account (acct_…); null when not connected, or when a restricted key may not read it.'),
  ),
  accountName: orNull(text("The account's name as Stripe shows it, when the key may read it.")),
  mode: orNull(
    v.pipe(
      v.picklist(stripeModes),
      v.description("test or live, from the key's prefix (sk_test_/rk_test_ or sk_live_/rk_live_)."),
    ),
  ),
  keyLast4: orNull(text("The key's last four characters: all that is ever shown of it.")),
  webhookSecretSet: v.pipe(
    v.boolean(),
    v.description(
      "Whether the webhook endpoint's signing secret is set: without it no Stripe event is taken.",
    ),
  ),
  webhookUrl: v.pipe(
    v.string(),
    v.url(),
    v.description("The address to register as an endpoint in Stripe's dashboard (Developers, Webhooks)."),
  ),
  webhookEvents: v.pipe(v.array(v.string()), v.description('The events to select for that endpoint.')),
  connectedUtc: orNull(dateTime('When it was connected.')),
  updatedUtc: orNull(dateTime('When the key or the signing secret last changed.')),
});

export type StripeConnectionView = v.InferOutput<typeof stripeConnectionSchema>;

export function loadStripeConnection(db: Db, workspaceId: string): Promise<StripeConnectionRow | undefined> {
  return db
    .selectFrom('stripe_connections')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

export function stripeConnectionView(ctx: Ctx, row: StripeConnectionRow | undefined): StripeConnectionView {
  return {
    connected: row !== undefined,
    accountId: row?.account_id ?? null,
    accountName: row?.account_name ?? null,
    mode: row?.mode ?? null,
    keyLast4: row?.key_last4 ?? null,
    webhookSecretSet: row?.webhook_secret_enc != null,
    webhookUrl: `${ctx.request.origin}${stripeWebhookPath(ctx.actor.workspaceId)}`,
    webhookEvents: [...stripeWebhookEvents],
    connectedUtc: row?.connected_utc ?? null,
    updatedUtc: row?.updated_utc ?? null,
  };
}
