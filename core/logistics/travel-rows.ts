// A journey found only at its event (another event's or workspace's id answers 404 notFound as if
// it did not exist), its view as this caller reads it, and the rule that a cancelled one stays so.

import { changingRow } from '../../db/dialect';
import type { TravelRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { travelView } from '../webhooks/message-resources';

/**
 * The row at its event; `forChange` locks it on PostgreSQL (db/dialect.ts changingRow) for a change
 * checked against its other columns (times, dates): another change of the same row waits, so the
 * check sees the row the update writes over.
 */
export async function loadTravel(
  ctx: Ctx,
  eventId: string,
  id: string,
  forChange = false,
): Promise<TravelRow> {
  const query = ctx.db.selectFrom('travel').selectAll().where('id', '=', id).where('event_id', '=', eventId);
  const row = await (forChange ? changingRow(ctx.db, query) : query).executeTakeFirst();
  if (!row) throw problem('notFound', `No travel ${id} at this event.`);
  return row;
}

export async function travelNow(ctx: Ctx, eventId: string, id: string) {
  return travelView(await loadTravel(ctx, eventId, id), ctx.actor);
}

/** 409 statusNotAllowed, naming the status, for a cancelled journey. */
export function requireBooked(travel: Pick<TravelRow, 'status'>, action: string): void {
  if (travel.status === 'booked') return;
  throw problem('statusNotAllowed', `A ${travel.status} journey cannot be ${action}.`, {
    currentStatus: travel.status,
  });
}
