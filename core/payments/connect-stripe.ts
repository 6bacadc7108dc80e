// Connects the workspace to its Stripe account: the key is tried against Stripe before the write
// (outside its transaction, so no other write waits on Stripe), then kept encrypted with the webhook
// signing secret, as webhook signing secrets are. Sent again as it is, it changes nothing.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { decryptSecret, encryptSecret, secretKeyOf } from '../platform/sealed-secrets';
import { type KeyCheck, stripeClient } from './stripe-client';
import {
  loadStripeConnection,
  type StripeConnectionRow,
  stripeConnectionSchema,
  stripeConnectionView,
} from './stripe-connection';
import {
  lastFour,
  modeOfKey,
  secretKeyMessage,
  secretKeyPattern,
  webhookSecretMessage,
  webhookSecretPattern,
} from './stripe-keys';

/** What Stripe said of each key tried before its write, for the write to use. */
const checked = new WeakMap<object, KeyCheck>();

const input = v.object({
  secretKey: v.pipe(
    v.string(),
    v.regex(secretKeyPattern, secretKeyMessage),
    v.description(
      'The secret key (sk_test_…, sk_live_…) or a restricted key (rk_…) with the permissions docs/payments.md lists. Kept encrypted; never answered back.',
    ),
  ),
  webhookSecret: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.regex(webhookSecretPattern, webhookSecretMessage),
        v.description(
          "The signing secret (whsec_…) of the endpoint registered in Stripe's dashboard at webhookUrl. Kept encrypted; never answered back. Absent: the one set stays; null: removed.",
        ),
      ),
    ),
  ),
});

type ConnectInput = v.InferOutput<typeof input>;

/** Whether the stored connection already holds exactly these secrets. */
function sameSecrets(key: Buffer, row: StripeConnectionRow, sent: ConnectInput): boolean {
  if (decryptSecret(key, row.secret_key_enc) !== sent.secretKey) return false;
  if (sent.webhookSecret === undefined) return true;
  const stored = row.webhook_secret_enc === null ? null : decryptSecret(key, row.webhook_secret_enc);
  return stored === sent.webhookSecret;
}

export const connectStripe = defineOperation({
  name: 'connectStripe',
  title: 'Connect Stripe',
  description:
    "Connects the workspace to Stripe for card payments: its secret or restricted key (checked with Stripe: stripeKeyRefused) and the signing secret of the webhook at get_stripe_connection's webhookUrl, kept encrypted. Needs finance:write.",
  scope: 'finance:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  openWorld: true,
  activity: {
    resourceType: 'stripeConnection',
    resourceId: (_input, _answer, ctx) => ctx.actor.workspaceId,
    summary: (_input, answer) => `${answer.mode} mode, key …${answer.keyLast4}`,
  },
  problems: ['stripeKeyRefused', 'stripeUnavailable'],
  input,
  output: stripeConnectionSchema,
  async before(ctx, sent) {
    const current = await loadStripeConnection(ctx.db, ctx.actor.workspaceId);
    const key = secretKeyOf(ctx.services);
    // The same key again needs no call to Stripe (a repeated PUT stays quick and offline-safe).
    if (current && decryptSecret(key, current.secret_key_enc) === sent.secretKey)
      checked.set(sent, { accountId: current.account_id, accountName: current.account_name });
    else checked.set(sent, await (await stripeClient(ctx.services, sent.secretKey)).checkKey());
  },
  async handler(ctx, sent) {
    const key = secretKeyOf(ctx.services);
    const current = await loadStripeConnection(ctx.db, ctx.actor.workspaceId);
    if (current && sameSecrets(key, current, sent)) return unchanged(stripeConnectionView(ctx, current));
    const account = await accountOf(ctx, sent);
    const now = ctx.clock.now().toISOString();
    const row: StripeConnectionRow = {
      workspace_id: ctx.actor.workspaceId,
      account_id: account.accountId,
      account_name: account.accountName,
      mode: modeOfKey(sent.secretKey),
      secret_key_enc: encryptSecret(key, sent.secretKey),
      key_last4: lastFour(sent.secretKey),
      webhook_secret_enc:
        sent.webhookSecret === undefined
          ? (current?.webhook_secret_enc ?? null)
          : sent.webhookSecret === null
            ? null
            : encryptSecret(key, sent.webhookSecret),
      connected_by: current?.connected_by ?? ctx.actor.keyName,
      connected_utc: current?.connected_utc ?? now,
      updated_utc: now,
    };
    const { workspace_id: _, ...changes } = row;
    await ctx.db
      .insertInto('stripe_connections')
      .values(row)
      .onConflict((c) => c.column('workspace_id').doUpdateSet(changes))
      .execute();
    return stripeConnectionView(ctx, row);
  },
});

/** The account `before` found for this call (a caller in process that skipped it tries the key now). */
async function accountOf(ctx: Ctx, sent: ConnectInput): Promise<KeyCheck> {
  return checked.get(sent) ?? (await stripeClient(ctx.services, sent.secretKey)).checkKey();
}
