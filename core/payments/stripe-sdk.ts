// The official Stripe SDK, loaded on first use: most starts never speak to Stripe, and the SDK is
// large, so the server's start-up does not load it. The only module of core that imports it, with
// the client made from it (stripe-client.ts).
import type Stripe from 'stripe';
import type { Db } from '../../db/connect';
import { problem } from '../platform/problems';
import type { StripeApiAddress } from '../platform/services';

export type { Stripe };

let loading: Promise<typeof Stripe> | undefined;

/**
 * Loads the SDK in the background when a workspace of this database is connected to Stripe, so that
 * the first card orders after a start (an on-sale rush on a process just started) do not wait while
 * it is read and compiled, and hold up every request behind them. Not awaited by the start.
 */
export async function preloadWhenConnected(db: Db): Promise<void> {
  const connected = await db
    .selectFrom('stripe_connections')
    .select('workspace_id')
    .limit(1)
    .executeTakeFirst();
  if (!connected) return;
  // One instance made and dropped: its constructor (a resource object each of Stripe's hundred
  // APIs) compiled before a buyer's order waits on it; the first made cold took 30 ms.
  const Sdk = await stripeSdk();
  new Sdk('sk_test_preload', { apiVersion: Sdk.API_VERSION, telemetry: false });
}

/** The SDK's class, imported once. */
export function stripeSdk(): Promise<typeof Stripe> {
  loading ??= import('stripe').then((module) => module.default);
  return loading;
}

/**
 * An SDK instance for a secret key, on the API version the SDK pins (its types describe that
 * version's objects), pointed at the stand-in when the deployment names one.
 */
export async function stripeFor(secretKey: string, api: StripeApiAddress | undefined): Promise<Stripe> {
  const Sdk = await stripeSdk();
  return new Sdk(secretKey, {
    apiVersion: Sdk.API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Tessera' },
    ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
  });
}

/** The SDK's error's kind (StripeAuthenticationError, ...), or undefined for any other error. */
function stripeErrorType(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error)) return undefined;
  const { type } = error;
  return typeof type === 'string' && type.startsWith('Stripe') ? type : undefined;
}

/**
 * The problem an SDK error is to the caller: a key Stripe refuses (401) or that may not do this
 * (403), or Stripe out of reach or failing. Any other error (a request Stripe found wrong) goes on.
 */
export function stripeProblem(error: unknown, doing: string): unknown {
  const type = stripeErrorType(error);
  const said = error instanceof Error ? error.message : String(error);
  switch (type) {
    case 'StripeAuthenticationError':
      return problem('stripeKeyRefused', `Stripe refused the key while ${doing}: ${said}`);
    case 'StripePermissionError':
      return problem(
        'stripeKeyRefused',
        `The key may not do this (${doing}): ${said} Give a secret key, or a restricted key with the permissions docs/payments.md lists.`,
      );
    case 'StripeConnectionError':
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return problem('stripeUnavailable', `Stripe could not be reached or failed while ${doing}: ${said}`);
    default:
      return error;
  }
}

/** Runs one call to Stripe, its SDK errors turned into the problems they are to the caller. */
export async function callStripe<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeProblem(error, doing);
  }
}
