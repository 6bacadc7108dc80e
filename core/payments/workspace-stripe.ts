// The Stripe client of a workspace's own account: its connection's key decrypted for the call at
// hand (never kept in memory beyond it); null when the workspace is not connected.

import { decryptSecret, secretKeyOf } from '../platform/sealed-secrets';
import type { Services } from '../platform/services';
import { type StripeClient, stripeClient } from './stripe-client';
import { loadStripeConnection } from './stripe-connection';

export async function workspaceStripe(services: Services, workspaceId: string): Promise<StripeClient | null> {
  const connection = await loadStripeConnection(services.db, workspaceId);
  if (!connection) return null;
  return stripeClient(services, decryptSecret(secretKeyOf(services), connection.secret_key_enc));
}
