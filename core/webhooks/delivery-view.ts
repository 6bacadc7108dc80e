// A delivery of one message to one endpoint, with every attempt: when, the status code the
// receiver answered, how long it took, how it ended, and when the next one is due.
import * as v from 'valibot';
import { attemptOutcomes, deliveryStates } from '../../db/values';
import { dateTime, int32, text, uuid } from '../platform/schemas';

export const attemptSchema = v.object({
  attempt: int32('1 for the first attempt.'),
  atUtc: dateTime('When it was sent.'),
  statusCode: v.nullable(int32('What the receiver answered; null when it did not.')),
  durationMs: v.pipe(v.number(), v.description('How long it took.')),
  outcome: v.pipe(
    v.picklist(attemptOutcomes),
    v.description(
      'succeeded (2xx), httpError (another status), gone (410), timeout, networkError, privateAddress (the address was neither public nor allowed by TESSERA_WEBHOOKS_ALLOW) or notSigned.',
    ),
  ),
  error: v.nullable(text('What went wrong, for people.')),
  nextAttemptUtc: v.nullable(dateTime('When it is tried again; null when it is not.')),
});

export const deliverySchema = v.object({
  deliveryId: int32('The delivery id.'),
  messageId: v.pipe(
    v.string(),
    v.description('webhook-id: msg_ and 32 hex characters, the same on every attempt.'),
  ),
  type: text('The event type (webhook.test for a test message).'),
  eventId: v.nullable(uuid('The event the message is about.')),
  state: v.pipe(
    v.picklist(deliveryStates),
    v.description(
      'pending (more attempts to come), succeeded, failed (given up) or cancelled (the endpoint went away).',
    ),
  ),
  attempts: v.array(attemptSchema),
  nextAttemptUtc: v.nullable(dateTime('When it is tried next, while pending.')),
  createdUtc: dateTime('When the message was queued for this endpoint.'),
  updatedUtc: dateTime('Last change.'),
});

export type DeliveryView = v.InferOutput<typeof deliverySchema>;
