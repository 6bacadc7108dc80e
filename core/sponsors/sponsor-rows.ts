// A sponsor, a level or a lead, found only at its event: another event's or workspace's id answers
// 404 notFound as if it did not exist. A sponsor's read is locked on PostgreSQL as `lock` says
// (load-event-row.ts RowLock), for a write that will name it (a lead its sponsor); a conditional
// write's row is held by invoke before its handler reads it (ifMatch.hold).
import type { Ctx } from '../platform/context';
import { lockedAs, type RowLock } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import { leadQuery } from './lead-view';
import { sponsorQuery } from './sponsor-view';

export async function loadSponsorLevel(ctx: Ctx, eventId: string, levelId: string) {
  const query = ctx.db
    .selectFrom('sponsor_levels')
    .selectAll()
    .where('id', '=', levelId)
    .where('event_id', '=', eventId);
  const row = await query.executeTakeFirst();
  if (!row) throw problem('notFound', `No sponsor level ${levelId} at this event.`);
  return row;
}

export async function loadSponsor(ctx: Ctx, eventId: string, sponsorId: string, lock?: RowLock) {
  const query = ctx.db
    .selectFrom('sponsors')
    .selectAll()
    .where('id', '=', sponsorId)
    .where('event_id', '=', eventId);
  const row = await lockedAs(ctx.db, query, lock).executeTakeFirst();
  if (!row) throw problem('notFound', `No sponsor ${sponsorId} at this event.`);
  return row;
}

/** A sponsor with its level's name and rank, as the sponsor view shows it. */
export async function loadSponsorView(ctx: Ctx, sponsorId: string) {
  return sponsorQuery(ctx.db).where('sponsors.id', '=', sponsorId).executeTakeFirstOrThrow();
}

/** The event's lead; 404 notFound otherwise. */
export async function loadLead(ctx: Ctx, eventId: string, leadId: string) {
  const row = await leadQuery(ctx.db)
    .where('leads.id', '=', leadId)
    .where('leads.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No lead ${leadId} at this event.`);
  return row;
}
