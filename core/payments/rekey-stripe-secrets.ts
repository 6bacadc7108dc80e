// The Stripe secrets' part of `tessera secrets rekey`: each workspace's key and webhook signing
// secret sealed again under the new key, in the rekey's transaction (core/webhooks/rekey-secrets.ts
// owns it and the webhook endpoints' secrets; core/admin/rekey-all-secrets.ts joins the two). A key no key opens, when the rekey may discard,
// disconnects the workspace: a connection without its key is no connection (connect it again).
import type { Db } from '../../db/connect';
import type { Reseal } from '../platform/sealed-secrets';

/** Re-seals every workspace's Stripe secrets; answers how many connections there were. */
export async function resealStripeSecrets(trx: Db, reseal: Reseal): Promise<number> {
  const rows = await trx
    .selectFrom('stripe_connections')
    .select(['workspace_id', 'secret_key_enc', 'webhook_secret_enc'])
    .execute();
  for (const row of rows) {
    const key = reseal(`The Stripe key of workspace ${row.workspace_id}`, row.secret_key_enc);
    if (key === null) {
      await trx.deleteFrom('stripe_connections').where('workspace_id', '=', row.workspace_id).execute();
      continue;
    }
    await trx
      .updateTable('stripe_connections')
      .set({
        secret_key_enc: key,
        webhook_secret_enc: reseal(
          `The Stripe webhook signing secret of workspace ${row.workspace_id}`,
          row.webhook_secret_enc,
        ),
      })
      .where('workspace_id', '=', row.workspace_id)
      .execute();
  }
  return rows.length;
}
