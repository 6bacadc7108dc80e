// The address Stripe sends a workspace's events to (POST /api/v1/payments/stripe/webhook/{workspaceId},
// a Tessera extension): no API key, the Stripe-Signature header is the proof, checked by core with
// the SDK against the workspace's signing secret over the body exactly as sent. Answers 200 once the
// event is recorded (a resent one too, so Stripe stops), 400 stripeSignatureInvalid otherwise.
import { Router } from '@koa/router';
import { cardPaymentEvents } from '../core/orders';
import { receiveStripeEvent } from '../core/payments';
import { problem } from '../core/platform/problems';
import { readRequestBody } from '../core/platform/request-body';
import type { Services } from '../core/platform/services';
import { apiBase } from './route-table';

/** A Stripe event is a few kilobytes; its largest objects stay far below this. */
const maxEventBytes = 1024 * 1024;

export const stripeWebhookRoute = `${apiBase}/payments/stripe/webhook/:workspaceId`;

export function stripeWebhookRouter(services: Services): Router {
  const router = new Router();
  router.post(stripeWebhookRoute, async (ctx) => {
    ctx.state.operation = `POST ${apiBase}/payments/stripe/webhook/{workspaceId}`;
    const signature = ctx.get('stripe-signature');
    if (!signature) throw problem('stripeSignatureInvalid', 'The request has no Stripe-Signature header.');
    const body = await readRequestBody(ctx.req, maxEventBytes);
    const received = await receiveStripeEvent(
      services,
      {
        workspaceId: ctx.params.workspaceId!.toLowerCase(),
        body,
        signature,
        origin: ctx.state.origin,
      },
      cardPaymentEvents,
    );
    ctx.status = 200;
    ctx.body = { received: true, ...received };
  });
  return router;
}
