// Messages out. endpoints/: webhook endpoints (/webhooks), signed deliveries of the event types an
// endpoint names; subscriptions/: automation subscriptions (/hooks: Zapier, Make, n8n), unsigned
// callbacks of one event type. The dispatcher delivers both.

export { type DeliveryQueue, deliveryQueue } from './delivery-queue';
export { deliverySchema } from './delivery-view';
export { Dispatcher, type DispatcherOptions, defaultDispatcherOptions, purgeDelivered } from './dispatcher';
export { endExpiredKeys, endKeySubscriptions } from './end-key';
export { createWebhook } from './endpoints/create-webhook';
export { deleteWebhook } from './endpoints/delete-webhook';
export { getWebhook } from './endpoints/get-webhook';
export { listWebhookDeliveries } from './endpoints/list-webhook-deliveries';
export { listWebhooks } from './endpoints/list-webhooks';
export { rotateWebhookSecret } from './endpoints/rotate-webhook-secret';
export { sendTestMessage, testMessageSchema, testMessageType } from './endpoints/send-test-message';
export { updateWebhook } from './endpoints/update-webhook';
export { webhookSchema } from './endpoints/webhook-view';
export { type EventTypeDefinition, eventTypes, hookBodySchema, signedBodySchema } from './event-types';
export { eventTypeSchema, listEventTypes } from './list-event-types';
export { retireOldSampleReceivers } from './old-sample-receivers';
export { checkReceiverUrl } from './receiver-address';
export {
  RekeyRefused,
  type Reseal,
  rekeySecrets,
  type SealedElsewhere,
  secretKeysOfFile,
} from './rekey-secrets';
export { addSampleWebhooks } from './sample-webhooks';
export { checkSecretKey } from './secret-key-check';
export { decryptSecret, encryptSecret, secretKeyOf } from './signing-secrets';
export { createHook } from './subscriptions/create-hook';
export { createHookForType } from './subscriptions/create-hook-for-type';
export { deleteHook } from './subscriptions/delete-hook';
export { getHook } from './subscriptions/get-hook';
export { hookSchema } from './subscriptions/hook-view';
export { listHooks } from './subscriptions/list-hooks';
