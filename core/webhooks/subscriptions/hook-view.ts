// The public Hook resource (an automation subscription). The callback address is never returned.
import * as v from 'valibot';
import type { HookRow } from '../../../db/schema';
import { webhookEventTypes } from '../../../db/values';
import type { Ctx } from '../../platform/context';
import type { RowLock } from '../../platform/pipeline/load-event-row';
import { loadWorkspaceRow } from '../../platform/pipeline/load-workspace-row';
import { dateTime, uuid } from '../../platform/schemas';
import { unknownHookClient } from './hook-client';

/** The most automation subscriptions a workspace may have. */
export const maxHooks = 200;

export const hookSchema = v.object({
  id: uuid('The subscription id (DELETE /hooks/{id} removes it).'),
  event: v.pipe(v.picklist(webhookEventTypes), v.description('The event type it receives.')),
  eventId: v.nullable(uuid('The one event it listens to; null: every event of the workspace.')),
  client: v.pipe(
    v.string(),
    v.description(
      `The platform that made it (e.g. zapier, make, n8n, pipedream); "${unknownHookClient}" when it named none.`,
    ),
  ),
  active: v.pipe(v.boolean(), v.description('Whether anything is sent to it.')),
  createdUtc: dateTime('When it was made.'),
});

export type HookView = v.InferOutput<typeof hookSchema>;

export function hookView(row: HookRow): HookView {
  return {
    id: row.id,
    event: row.event_type,
    eventId: row.event_id,
    client: row.client,
    active: row.active === 1,
    createdUtc: row.created_utc,
  };
}

export function loadHook(ctx: Ctx, hookId: string, lock?: RowLock): Promise<HookRow> {
  return loadWorkspaceRow(ctx, 'hooks', hookId, 'subscription', lock);
}
