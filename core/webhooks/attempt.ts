// One attempt of a delivery read by readClaimed, as the dispatcher makes it and a test message
// makes its first: the message redacted for the key that made the receiver, signed for an endpoint
// (Standard Webhooks) or lifted for an automation subscription, then sent under the receiver rule.
import type { WebhookRow } from '../../db/schema';
import type { WebhookEventType } from '../../db/values';
import { redactFor } from '../platform/pipeline/personal-data';
import type { Services } from '../platform/services';
import type { ClaimedDelivery } from './claimed-deliveries';
import { eventTypes, hookBody } from './event-types';
import { type SendResult, send } from './sender';
import { decryptSecret, signature } from './signing-secrets';

export async function attemptDelivery(
  services: Services,
  claimed: Extract<ClaimedDelivery, { cancel: false }>,
): Promise<SendResult> {
  const { delivery, target, reader, message } = claimed;
  const definition = eventTypes.get(message.type as WebhookEventType);
  if (definition) redactFor(message.data, reader, definition.personal);
  if (target.kind === 'webhook') {
    const body = JSON.stringify({ type: message.type, timestamp: message.timestamp, data: message.data });
    const signed = signedHeaders(services, target.row, delivery.message_id, body);
    return typeof signed === 'string'
      ? {
          outcome: 'notSigned',
          reason: 'notSigned',
          statusCode: null,
          durationMs: 0,
          retryAfterSeconds: null,
          error: signed,
        }
      : send(target.row.url, body, signed, services.delivery);
  }
  const body = JSON.stringify(hookBody(delivery.message_id, message));
  return send(target.row.url, body, { 'user-agent': 'Tessera-Hooks/1' }, services.delivery);
}

/**
 * webhook-id, webhook-timestamp and webhook-signature: one signature, two while a secret is being
 * replaced. Answers why not when it cannot sign (no secret, or one kept under another key): the
 * attempt fails as notSigned and is tried again on the schedule.
 */
function signedHeaders(
  services: Services,
  webhook: WebhookRow,
  messageId: string,
  body: string,
): Record<string, string> | string {
  const key = services.secrets.webhookSecretKey;
  if (!webhook.secret_enc)
    return 'The endpoint has no signing secret: make one with POST /webhooks/{webhookId}/secret.';
  const now = services.clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  const kept = [webhook.secret_enc];
  if (
    webhook.previous_secret_enc &&
    webhook.previous_secret_until_utc &&
    webhook.previous_secret_until_utc > now.toISOString()
  )
    kept.push(webhook.previous_secret_enc);
  let secrets: string[];
  try {
    secrets = kept.map((sealed) => decryptSecret(key, sealed));
  } catch {
    return 'The signing secret was kept under another master key: make a new one with POST /webhooks/{webhookId}/secret.';
  }
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, messageId, timestamp, body)).join(' '),
    'user-agent': 'Tessera-Webhooks/1',
  };
}
