// A test message is sent at once, while the caller waits, and the answer says how its attempt
// went and why it failed (the name did not resolve, the connection was refused, TLS, no answer in
// time, a status other than 2xx): the delivery is made claimed for this call, so the dispatcher
// leaves it alone; its attempt is sent after the commit and written as the dispatcher writes one,
// and a failed one is retried on the schedule. Should this process end before, the claim runs out
// and the dispatcher sends it.
import * as v from 'valibot';
import { attemptOutcomes } from '../../../db/values';
import { newMessageId } from '../../platform/ids';
import { defineOperation } from '../../platform/pipeline/operation';
import { dateTime, int32, text, uuid } from '../../platform/schemas';
import { attemptDelivery } from '../attempt';
import { AttemptResults } from '../attempt-results';
import { readClaimed } from '../claimed-deliveries';
import { newDelivery } from '../delivery-state';
import { failureReasons } from '../sender';
import { secretKeyOf } from '../signing-secrets';
import { loadWebhook } from './webhook-view';

export const testMessageType = 'webhook.test';

/** The signed body of a test message, as the endpoint receives it. */
export const testMessageSchema = v.object({
  type: v.pipe(v.literal(testMessageType), v.description('Always webhook.test.')),
  timestamp: dateTime('When it was sent for (UTC).'),
  data: v.object({
    webhookId: uuid('The endpoint tested.'),
    note: text('Says that nothing happened.'),
  }),
});

/** How the test message's attempt went. */
const attemptSchema = v.object({
  outcome: v.pipe(
    v.picklist(attemptOutcomes),
    v.description(
      'succeeded (2xx), httpError, gone (410), timeout, networkError, privateAddress or notSigned.',
    ),
  ),
  reason: v.pipe(
    v.nullable(v.picklist(failureReasons)),
    v.description(
      'Why it failed: dnsFailure (the name does not resolve), connectionRefused, connectionFailed, tlsError (certificate or handshake), timeout, httpStatus (an answer other than 2xx), privateAddress (not an address deliveries may reach) or notSigned; null when it succeeded.',
    ),
  ),
  statusCode: v.nullable(int32('What the receiver answered; null when it did not.')),
  durationMs: v.pipe(v.number(), v.description('How long it took.')),
  error: v.nullable(text('What went wrong, for people; null when it succeeded.')),
});

export const sendTestMessage = defineOperation({
  name: 'sendTestMessage',
  title: 'Send a test message',
  description:
    'Sends a signed webhook.test message to an endpoint now; attempt says how it went and, if it failed, why (reason: dnsFailure, connectionRefused, tlsError, timeout, httpStatus...). Retried like any delivery. Needs webhooks:write.',
  scope: 'webhooks:write',
  effect: 'write',
  activity: { resourceType: 'webhook', resourceId: (input) => input.webhookId },
  openWorld: true,
  problems: ['notFound', 'webhooksUnavailable'],
  input: v.object({ webhookId: uuid('The endpoint id.') }),
  output: v.object({
    messageId: text('webhook-id of the test message.'),
    deliveryId: int32('Its delivery, in the deliveries list.'),
    queuedUtc: dateTime('When it was queued.'),
    attempt: v.optional(
      v.pipe(
        attemptSchema,
        v.description(
          'Tessera extension: the first attempt, made while the call waited (at most the delivery time-out); absent when none could be made (the endpoint went away meanwhile).',
        ),
        v.metadata({ 'x-tessera-extension': true }),
      ),
    ),
  }),
  async handler(ctx, input) {
    secretKeyOf(ctx.services);
    const webhook = await loadWebhook(ctx, input.webhookId);
    const now = ctx.clock.now().toISOString();
    // Claimed for this call while it sends (and a minute beyond, as the dispatcher claims).
    const claimedUntil = new Date(
      ctx.clock.now().getTime() + ctx.services.delivery.timeoutMs + 60_000,
    ).toISOString();
    const messageId = newMessageId();
    const payload: v.InferOutput<typeof testMessageSchema> = {
      type: testMessageType,
      timestamp: now,
      data: { webhookId: webhook.id, note: 'A test message sent on request. Nothing happened.' },
    };
    const { id } = await ctx.db
      .insertInto('deliveries')
      .values({
        ...newDelivery(
          {
            workspace_id: ctx.actor.workspaceId,
            outbox_id: null,
            message_id: messageId,
            type: testMessageType,
            payload: JSON.stringify(payload),
            target_kind: 'webhook',
            target_id: webhook.id,
          },
          now,
        ),
        claimed_until_utc: claimedUntil,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { messageId, deliveryId: id, queuedUtc: now };
  },
  async settle(ctx, answer) {
    const [claimed] = await readClaimed(ctx.services.db, [answer.deliveryId], ctx.clock.now().toISOString());
    if (!claimed || claimed.cancel) {
      // Nothing to send (the endpoint went away meanwhile): the dispatcher settles it when the claim ends.
      return answer;
    }
    const result = await attemptDelivery(ctx.services, claimed);
    await new AttemptResults(ctx.services)
      .record({ delivery: claimed.delivery, target: claimed.target, result })
      .catch((err: unknown) =>
        // Sent but not written: the claim runs out and the dispatcher sends it again, as after a crash.
        ctx.services.log.error({ err, deliveryId: answer.deliveryId }, 'writing a test attempt failed'),
      );
    const { outcome, reason, statusCode, durationMs, error } = result;
    return { ...answer, attempt: { outcome, reason, statusCode, durationMs, error } };
  },
});
