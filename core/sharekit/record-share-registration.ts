// A registration sent with a share link's code (shareRef) counts for the link's sharer: one row per
// ticket, written in the registration's transaction. A code that names no live link of the event,
// or an event whose share kit is switched off, records nothing and never refuses the registration:
// a stale or mistyped link must not cost anyone their ticket. One indexed lookup, only when sent.
import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { modulesOf } from '../platform/pipeline/load-event';

export async function recordShareRegistration(
  ctx: Ctx,
  event: EventRow,
  code: string,
  attendees: { id: string }[],
): Promise<void> {
  if (attendees.length === 0 || !modulesOf(event).sharekit) return;
  const link = await ctx.db
    .selectFrom('share_links')
    .select('id')
    .where('event_id', '=', event.id)
    .where('code', '=', code)
    .where('removed_utc', 'is', null)
    .executeTakeFirst();
  if (!link) return;
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('share_registrations')
    .values(
      attendees.map((a) => ({
        attendee_id: a.id,
        workspace_id: ctx.actor.workspaceId,
        link_id: link.id,
        registered_utc: now,
      })),
    )
    .execute();
}
