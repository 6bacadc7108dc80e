// The reconciliation of card payments (every minute, src/jobs.ts): Stripe's word is taken even when
// its event was lost. Holds that ended are settled with Stripe: a session paid meanwhile is recorded,
// one still open is expired first (so nobody pays after its places went back), then the order
// expires. Sessions paid but not recorded are found in Stripe's list of completed sessions, one call
// per workspace with orders awaiting a card payment. Stripe out of reach, a hold is released only
// once Stripe's own expiry of its session has surely passed (sessionExpiry: a minute after the hold).
import { type StripeClient, stripeContext, workspaceStripe } from '../payments';
import type { Ctx } from '../platform/context';
import type { Services } from '../platform/services';
import { type CheckoutOutcome, recordCheckoutExpired, recordCheckoutPaid } from './card-paid';
import { expireHeldOrder } from './expire-order';

/** Past the hold's end by this much, Stripe has expired the session whatever it answers now. */
const stripeExpiredSurelyMs = 10 * 60_000;
/** Completed sessions are looked for from a little before the oldest held order was made. */
const lookBackMs = 5 * 60_000;
/** Holds settled in one run at most (the next run goes on). */
const batch = 500;

export interface Reconciled {
  paid: number;
  expired: number;
}

export async function reconcileCardPayments(services: Services): Promise<Reconciled> {
  const done: Reconciled = { paid: 0, expired: 0 };
  const count = (outcome: CheckoutOutcome | boolean) => {
    if (outcome === 'paid') done.paid += 1;
    if (outcome === 'expired' || outcome === true) done.expired += 1;
  };
  const now = services.clock.now();
  const ended = await services.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .select([
      'card_checkouts.order_id',
      'card_checkouts.workspace_id',
      'card_checkouts.session_id',
      'card_checkouts.hold_until_utc',
    ])
    .where('orders.status', '=', 'pending')
    .where('card_checkouts.hold_until_utc', '<=', now.toISOString())
    .orderBy('card_checkouts.hold_until_utc')
    .limit(batch)
    .execute();
  const clients = new Map<string, Promise<StripeClient | null>>();
  const stripeOf = (workspaceId: string) => {
    if (!clients.has(workspaceId)) clients.set(workspaceId, workspaceStripe(services, workspaceId));
    return clients.get(workspaceId)!;
  };
  for (const hold of ended) count(await settleEndedHold(services, hold, await stripeOf(hold.workspace_id)));
  for (const held of await workspacesAwaitingCards(services)) {
    const stripe = await stripeOf(held.workspaceId);
    if (stripe) for (const outcome of await recordCompletedSessions(services, held, stripe)) count(outcome);
  }
  return done;
}

/** Runs a recording in a transaction of its own, as Stripe's word for the workspace. */
function asStripe<T>(services: Services, workspaceId: string, record: (ctx: Ctx) => Promise<T>): Promise<T> {
  const ctx = stripeContext(services, workspaceId);
  return services.writes.run((trx, clock) => record({ ...ctx, db: trx, clock }));
}

async function settleEndedHold(
  services: Services,
  hold: { order_id: string; workspace_id: string; session_id: string | null; hold_until_utc: string },
  stripe: StripeClient | null,
): Promise<CheckoutOutcome | boolean> {
  const release = () => asStripe(services, hold.workspace_id, (ctx) => expireHeldOrder(ctx, hold.order_id));
  // No session was ever made (the process stopped between the order and its session): nobody can pay.
  if (hold.session_id === null) return release();
  try {
    if (!stripe) throw new Error('the workspace is no longer connected to Stripe');
    let session = await stripe.retrieveSession(hold.session_id);
    if (session.status === 'open') session = await stripe.expireSession(hold.session_id);
    if (session.status === 'complete')
      return await asStripe(services, hold.workspace_id, (ctx) => recordCheckoutPaid(ctx, session));
    return await asStripe(services, hold.workspace_id, (ctx) => recordCheckoutExpired(ctx, session));
  } catch (error) {
    const overdue = services.clock.now().getTime() - Date.parse(hold.hold_until_utc) > stripeExpiredSurelyMs;
    services.log.warn(
      { err: error, orderId: hold.order_id, released: overdue },
      'an ended card hold could not be settled with Stripe',
    );
    return overdue ? release() : false;
  }
}

interface AwaitingCards {
  workspaceId: string;
  /** When the oldest of its orders awaiting a card payment was made. */
  oldest: string;
  orderIds: Set<string>;
}

/** Workspaces with card orders awaiting payment whose session is made: those orders and the oldest's time. */
async function workspacesAwaitingCards(services: Services): Promise<AwaitingCards[]> {
  const rows = await services.db
    .selectFrom('card_checkouts')
    .innerJoin('orders', 'orders.id', 'card_checkouts.order_id')
    .select(['card_checkouts.workspace_id', 'card_checkouts.order_id', 'card_checkouts.created_utc'])
    .where('orders.status', '=', 'pending')
    .where('card_checkouts.session_id', 'is not', null)
    .orderBy('card_checkouts.created_utc')
    .execute();
  const byWorkspace = new Map<string, AwaitingCards>();
  for (const row of rows) {
    const held = byWorkspace.get(row.workspace_id) ?? {
      workspaceId: row.workspace_id,
      oldest: row.created_utc,
      orderIds: new Set<string>(),
    };
    held.orderIds.add(row.order_id);
    byWorkspace.set(row.workspace_id, held);
  }
  return [...byWorkspace.values()];
}

/** The completed sessions Stripe lists since the oldest held order, recorded (those recorded already find it done). */
async function recordCompletedSessions(
  services: Services,
  held: AwaitingCards,
  stripe: StripeClient,
): Promise<CheckoutOutcome[]> {
  try {
    const since = new Date(Date.parse(held.oldest) - lookBackMs);
    const events = await stripe.listEventsSince(since, ['checkout.session.completed']);
    const outcomes: CheckoutOutcome[] = [];
    for (const event of events) {
      if (event.type !== 'checkout.session.completed') continue;
      const session = event.data.object;
      if (!held.orderIds.has(session.client_reference_id ?? '')) continue;
      outcomes.push(await asStripe(services, held.workspaceId, (ctx) => recordCheckoutPaid(ctx, session)));
    }
    return outcomes;
  } catch (error) {
    services.log.warn(
      { err: error, workspaceId: held.workspaceId },
      'completed checkouts could not be listed',
    );
    return [];
  }
}
