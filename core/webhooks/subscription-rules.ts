// What it takes to subscribe to event types, through an endpoint or /hooks: known types (else 400
// eventType), the scopes of what they deliver (else 403 missingScope naming the first lacking),
// and for /hooks webhooks:write — or webhooks:read for keys made before 15 October 2026, which
// subscribed with it then.
import * as v from 'valibot';
import { type WebhookEventType, webhookEventTypes } from '../../db/values';
import type { Actor } from '../platform/actor';
import { detail, mention } from '../platform/mentions';
import { problem } from '../platform/problems';
import { requireScope } from '../platform/scopes';
import { scopesFor } from './event-types';
import { listEventTypes } from './list-event-types';

/**
 * An event type as sent: any string, so an unknown one is answered 400 eventType (not a field
 * refusal), while readers of the schema (OpenAPI, MCP) see the 22 names as an enum.
 */
export const eventTypeName = (description?: string) =>
  description === undefined
    ? v.pipe(v.string(), v.metadata({ enum: [...webhookEventTypes] }))
    : v.pipe(v.string(), v.description(description), v.metadata({ enum: [...webhookEventTypes] }));

/** Keys made before this subscribed through /hooks with webhooks:read. */
export const hooksNeedWriteSince = '2026-10-15T00:00:00.000Z';

export function knownEventTypes(sent: readonly string[]): WebhookEventType[] {
  const unknown = sent.filter((t) => !(webhookEventTypes as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw problem(
      'eventType',
      detail`${unknown.map((t) => `"${t}"`).join(', ')} ${unknown.length === 1 ? 'is not a webhook event type' : 'are not webhook event types'}; ${mention(listEventTypes)} lists them.`,
    );
  }
  return [...new Set(sent)] as WebhookEventType[];
}

/** The key must hold the scopes of what the types deliver. */
export function requireScopesOf(actor: Actor, types: readonly WebhookEventType[]): void {
  for (const scope of scopesFor(types)) requireScope(actor.scopes, scope);
}

/** Declared by the /hooks operations that make or remove subscriptions. */
export const olderHookKeys = { madeBefore: hooksNeedWriteSince, scope: 'webhooks:read' } as const;
