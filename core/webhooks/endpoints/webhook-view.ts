// The public Webhook resource (an endpoint). The signing secret is never part of it, and the query
// part of the address (often a token) is hidden.
import * as v from 'valibot';
import type { WebhookRow } from '../../../db/schema';
import {
  deliveryResults,
  type WebhookEventType,
  webhookDisabledReasons,
  webhookEventTypes,
} from '../../../db/values';
import type { Ctx } from '../../platform/context';
import type { RowLock } from '../../platform/pipeline/load-event-row';
import { loadWorkspaceRow } from '../../platform/pipeline/load-workspace-row';
import { dateTime, text, uuid } from '../../platform/schemas';
import { shownUrl } from '../receiver-address';

/** The most endpoints a workspace may have. */
export const maxEndpoints = 20;

export const webhookSchema = v.object({
  webhookId: uuid('The endpoint id.'),
  url: text('The address messages are sent to; the query part is hidden.'),
  host: text('The host of the address.'),
  description: v.nullable(text('What it is for, at most 200 characters.')),
  eventTypes: v.array(v.picklist(webhookEventTypes)),
  active: v.pipe(v.boolean(), v.description('Switched on: messages are sent to it.')),
  disabledReason: v.nullable(
    v.pipe(
      v.picklist(webhookDisabledReasons),
      v.description(
        'Why it stopped by itself: gone (the address answered 410), keyRevoked or keyExpired (the key that made it ended).',
      ),
    ),
  ),
  lastStatus: v.nullable(
    v.pipe(v.picklist(deliveryResults), v.description('How the last delivery attempt went.')),
  ),
  lastDeliveryUtc: v.nullable(dateTime('When a delivery was last attempted.')),
  createdUtc: dateTime('When it was added.'),
  createdBy: text('Who added it (the name of the key).'),
});

export type WebhookView = v.InferOutput<typeof webhookSchema>;

export function webhookView(row: WebhookRow): WebhookView {
  return {
    webhookId: row.id,
    url: shownUrl(row.url),
    host: new URL(row.url).host,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
    active: row.active === 1,
    disabledReason: row.disabled_reason,
    lastStatus: row.last_status,
    lastDeliveryUtc: row.last_delivery_utc,
    createdUtc: row.created_utc,
    createdBy: row.created_by,
  };
}

export function loadWebhook(ctx: Ctx, webhookId: string, lock?: RowLock): Promise<WebhookRow> {
  return loadWorkspaceRow(ctx, 'webhooks', webhookId, 'webhook endpoint', lock);
}
