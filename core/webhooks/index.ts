// Messages out. endpoints/: webhook endpoints (/webhooks), signed deliveries of the event types an
// endpoint names; subscriptions/: automation subscriptions (/hooks: Zapier, Make, n8n), unsigned
// callbacks of one event type. The dispatcher delivers both.
export { createWebhook } from './endpoints/create-webhook';
export { deleteWebhook } from './endpoints/delete-webhook';
export { getWebhook } from './endpoints/get-webhook';
export { listWebhookDeliveries } from './endpoints/list-webhook-deliveries';
export { listWebhooks } from './endpoints/list-webhooks';
export { rotateWebhookSecret } from './endpoints/rotate-webhook-secret';
export { sendTestMessage } from './endpoints/send-test-message';
export { updateWebhook } from './endpoints/update-webhook';
export { listEventTypes } from './list-event-types';
export { createHook } from './subscriptions/create-hook';
export { createHookForType } from './subscriptions/create-hook-for-type';
export { deleteHook } from './subscriptions/delete-hook';
export { getHook } from './subscriptions/get-hook';
export { listHooks } from './subscriptions/list-hooks';
