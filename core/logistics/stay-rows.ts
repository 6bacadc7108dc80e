// A stay found only at its event (another event's or workspace's id answers 404 notFound as if it
// did not exist), its view as this caller reads it, and the status rule of its moves.

import { changingRow } from '../../db/dialect';
import type { StayRow } from '../../db/schema';
import type { StayStatus } from '../../db/values';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { stayView } from '../webhooks/message-resources';

/**
 * The row at its event; `forChange` locks it on PostgreSQL (db/dialect.ts changingRow) for a change
 * checked against its other columns (times, dates): another change of the same row waits, so the
 * check sees the row the update writes over.
 */
export async function loadStay(ctx: Ctx, eventId: string, id: string, forChange = false): Promise<StayRow> {
  const query = ctx.db.selectFrom('stays').selectAll().where('id', '=', id).where('event_id', '=', eventId);
  const row = await (forChange ? changingRow(ctx.db, query) : query).executeTakeFirst();
  if (!row) throw problem('notFound', `No stay ${id} at this event.`);
  return row;
}

export async function stayNow(ctx: Ctx, eventId: string, id: string) {
  return stayView(await loadStay(ctx, eventId, id), ctx.actor);
}

/** 409 statusNotAllowed, naming the status, when the stay is in none of the allowed ones. */
export function requireStayStatus(stay: StayRow, allowed: readonly StayStatus[], action: string): void {
  if (allowed.includes(stay.status)) return;
  throw problem('statusNotAllowed', `A ${stay.status} stay cannot be ${action}.`, {
    currentStatus: stay.status,
  });
}
