// A sponsor, a level or a lead, found only at its event: another event's or workspace's id answers
// 404 notFound as if it did not exist. A sponsor's or a level's read is locked on PostgreSQL as
// `lock` says (load-event-row.ts RowLock): for a removal that first checks what depends on it, or
// for a write that will name it (a lead its sponsor); a lead's `forChange` for a change (see loadLead).
import type { Ctx } from '../platform/context';
import { lockedAs, lockForChange, type RowLock } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import { leadQuery } from './lead-view';
import { sponsorQuery } from './sponsor-view';

export async function loadSponsorLevel(ctx: Ctx, eventId: string, levelId: string, lock?: RowLock) {
  const query = ctx.db
    .selectFrom('sponsor_levels')
    .selectAll()
    .where('id', '=', levelId)
    .where('event_id', '=', eventId);
  const row = await lockedAs(ctx.db, query, lock).executeTakeFirst();
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

/**
 * `forChange` locks the lead's row on PostgreSQL (load-event-row.ts lockForChange) before reading it, for a
 * change checked against the row (shared, erased): an erasure of the visitor meanwhile is waited
 * for, so the change sees the row erased instead of writing their answers back. The row alone.
 */
export async function loadLead(ctx: Ctx, eventId: string, leadId: string, forChange = false) {
  if (forChange) await lockForChange(ctx, 'leads', eventId, leadId);
  const row = await leadQuery(ctx.db)
    .where('leads.id', '=', leadId)
    .where('leads.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No lead ${leadId} at this event.`);
  return row;
}
