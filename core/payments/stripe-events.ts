// Stripe's events, as the workspace's webhook address receives them: verified with the SDK's
// signature check against the workspace's signing secret, recorded once per event id (Stripe sends
// an event again until it was answered 2xx, and may send it twice anyway), and handed to the handler
// of its type in the same transaction as the record, so an event is acted on exactly once. Types
// without a handler are recorded and answered 200: Stripe stops resending them.
import type { Ctx } from '../platform/context';
import { keylessContext } from '../platform/keyless-actor';
import { problem } from '../platform/problems';
import { decryptSecret, secretKeyOf } from '../platform/sealed-secrets';
import type { Services } from '../platform/services';
import { verifiedStripeEvent } from './stripe-client';
import { loadStripeConnection } from './stripe-connection';
import type { Stripe } from './stripe-sdk';

/** The Stripe event types this service acts on (those docs/payments.md says to select). */
export type HandledStripeEvent = Extract<
  Stripe.Event,
  {
    type:
      | 'checkout.session.completed'
      | 'checkout.session.expired'
      | 'charge.refunded'
      | 'refund.created'
      | 'refund.updated';
  }
>;

/** The handler of one type: given the event as the SDK types it, inside the transaction recording it. */
export type StripeEventHandler<E extends Stripe.Event> = (ctx: Ctx, event: E) => Promise<void>;

/** One handler at most per handled type. */
export type StripeEventHandlers = {
  [T in HandledStripeEvent['type']]?: StripeEventHandler<Extract<HandledStripeEvent, { type: T }>>;
};

/** The name the activity log gives changes made on Stripe's word. */
export const stripeActorName = 'Stripe webhook';

export type StripeEventOutcome = 'handled' | 'ignored' | 'duplicate';

/** A context acting on Stripe's word for a workspace: its changes are logged as the Stripe webhook's. */
export function stripeContext(services: Services, workspaceId: string, origin?: string): Ctx {
  // No key: the orders it pays, and the people of their answers.
  return keylessContext(
    services,
    { workspaceId, name: stripeActorName, scopes: ['orders:write', 'people:read'] },
    origin,
  );
}

/** The id of the object an event is about (cs_…, ch_…, re_…), when it has one. */
function objectIdOf(event: Stripe.Event): string | null {
  const object: unknown = event.data.object;
  if (typeof object !== 'object' || object === null || !('id' in object)) return null;
  return typeof object.id === 'string' ? object.id : null;
}

function isHandled(event: Stripe.Event, handlers: StripeEventHandlers): event is HandledStripeEvent {
  return Object.hasOwn(handlers, event.type);
}

/** Verifies the event's signature; 400 stripeSignatureInvalid when it does not verify. */
async function verify(services: Services, workspaceId: string, body: Buffer, signature: string) {
  const connection = /^[0-9a-f-]{36}$/.test(workspaceId)
    ? await loadStripeConnection(services.db, workspaceId)
    : undefined;
  if (!connection?.webhook_secret_enc)
    throw problem(
      'stripeSignatureInvalid',
      'This address takes no Stripe events: the workspace is not connected to Stripe, or has no webhook signing secret set.',
    );
  const secret = decryptSecret(secretKeyOf(services), connection.webhook_secret_enc);
  try {
    return await verifiedStripeEvent(body, signature, secret);
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    throw problem('stripeSignatureInvalid', `The Stripe-Signature header does not verify: ${said}`);
  }
}

/**
 * Takes one request to a workspace's Stripe webhook address: verified, recorded once, handled.
 * `origin` is the service's public origin (links a handler makes, such as a ticket's page).
 */
export async function receiveStripeEvent(
  services: Services,
  request: { workspaceId: string; body: Buffer; signature: string; origin: string },
  handlers: StripeEventHandlers,
): Promise<{ eventId: string; type: string; outcome: StripeEventOutcome }> {
  const event = await verify(services, request.workspaceId, request.body, request.signature);
  const known = isHandled(event, handlers);
  const outcome = await services.writes.run(async (trx, moment): Promise<StripeEventOutcome> => {
    const recorded = await trx
      .insertInto('stripe_events')
      .values({
        workspace_id: request.workspaceId,
        event_id: event.id,
        type: event.type,
        object_id: objectIdOf(event),
        livemode: event.livemode ? 1 : 0,
        created_utc: new Date(event.created * 1000).toISOString(),
        received_utc: moment.now().toISOString(),
        handled: known ? 1 : 0,
      })
      .onConflict((c) => c.columns(['workspace_id', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!recorded) return 'duplicate';
    if (!known) return 'ignored';
    const ctx = { ...stripeContext(services, request.workspaceId, request.origin), db: trx, clock: moment };
    await dispatch(ctx, event, handlers);
    return 'handled';
  });
  return { eventId: event.id, type: event.type, outcome };
}

/** Calls the handler of the event's own type, the event narrowed to it. */
function dispatch(ctx: Ctx, event: HandledStripeEvent, handlers: StripeEventHandlers): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed':
      return handlers[event.type]?.(ctx, event) ?? Promise.resolve();
    case 'checkout.session.expired':
      return handlers[event.type]?.(ctx, event) ?? Promise.resolve();
    case 'charge.refunded':
      return handlers[event.type]?.(ctx, event) ?? Promise.resolve();
    case 'refund.created':
      return handlers[event.type]?.(ctx, event) ?? Promise.resolve();
    case 'refund.updated':
      return handlers[event.type]?.(ctx, event) ?? Promise.resolve();
  }
}
