// A workspace connected to the Stripe stand-in as an organiser connects theirs: a new test key the
// stand-in accepts for an account, connected through the API with a webhook signing secret, and the
// account's events sent to the workspace's webhook address.
import { randomBytes } from 'node:crypto';
import type { TestServer } from './server';
import type { StripeStandIn } from './stripe-stand-in';

export async function connectedWorkspace(
  t: TestServer,
  stripe: StripeStandIn,
  name: string,
): Promise<{ workspaceId: string; key: string; accountId: string }> {
  const { workspaceId } = await t.workspace(name, false);
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  const secretKey = `sk_test_${randomBytes(18).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const accountId = `acct_${randomBytes(8).toString('hex')}`;
  stripe.acceptKey(secretKey, { accountId, accountName: name });
  const connected = await t.api('/payments/stripe', {
    key,
    method: 'PUT',
    body: { secretKey, webhookSecret },
  });
  if (connected.status !== 200)
    throw new Error(`connecting answered ${connected.status}: ${JSON.stringify(connected.body)}`);
  stripe.addEndpoint(accountId, {
    url: `${t.server.origin}/api/v1/payments/stripe/webhook/${workspaceId}`,
    secret: webhookSecret,
    fetch: t.fetch,
  });
  return { workspaceId, key, accountId };
}
