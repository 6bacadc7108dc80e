// Making an automation subscription, shared by POST /hooks and POST /hooks/{eventType}: the key may
// subscribe (webhooks:write, or webhooks:read for keys made before 15 October 2026) to this type
// (its scopes), to an event of the workspace (404 eventNotFound), at a public https address; at
// most 200 a workspace; the platform that makes it recorded (hook-client.ts).
import * as v from 'valibot';
import type { HookClient } from '../../../db/values';
import type { Ctx } from '../../platform/context';
import { newId } from '../../platform/ids';
import { loadEvent } from '../../platform/pipeline/load-event';
import type { Activity } from '../../platform/pipeline/operation';
import { problem } from '../../platform/problems';
import { oneLine, uuid } from '../../platform/schemas';
import { type Warning, warningsField, withWarnings } from '../../platform/warnings';
import { checkReceiverUrl, maxReceiverUrlLength } from '../receiver-address';
import { knownEventTypes, requireScopesOf } from '../subscription-rules';
import { hookClientInput, hookClientOf } from './hook-client';
import { type HookView, hookSchema, hookView, maxHooks } from './hook-view';

export const hookFields = {
  url: v.pipe(
    v.string(),
    oneLine,
    v.description('Public https callback address; never shown again.'),
    v.metadata({ format: 'uri', maxLength: maxReceiverUrlLength }),
  ),
  eventId: uuid('Only this event; all events when absent.'),
  client: hookClientInput,
};

/** A subscription as POST answers it: the subscription, and what its address warns of. */
export const madeHookSchema = v.object({ ...hookSchema.entries, warnings: warningsField });

/** The log entry of a subscription, under the word the log has always used. */
export const subscribed: Activity<unknown, HookView> = {
  action: 'subscribe',
  resourceType: 'hook',
  resourceId: (_input, hook) => hook.id,
  summary: (_input, hook) => `${hook.event} (${hook.client})`,
};

export async function subscribe(
  ctx: Ctx,
  input: { url: string; event: string; eventId?: string; client?: HookClient },
): Promise<HookView & { warnings?: Warning[] }> {
  const [type] = knownEventTypes([input.event]);
  requireScopesOf(ctx.actor, [type!]);
  const event = input.eventId === undefined ? null : await loadEvent(ctx, input.eventId);
  const { warnings } = await checkReceiverUrl(input.url, ctx.services.delivery);
  const client = hookClientOf(input.client, ctx.request.userAgent);
  const { n } = await ctx.db
    .selectFrom('hooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= maxHooks)
    throw problem(
      'tooManyHooks',
      `A workspace may have at most ${maxHooks} automation subscriptions; remove one first.`,
    );
  const row = {
    id: newId(),
    workspace_id: ctx.actor.workspaceId,
    api_key_id: ctx.actor.keyId || null,
    event_type: type!,
    event_id: event?.id ?? null,
    url: input.url,
    client,
    active: 1 as const,
    created_utc: ctx.clock.now().toISOString(),
  };
  await ctx.db.insertInto('hooks').values(row).execute();
  return withWarnings(hookView(row), warnings);
}
