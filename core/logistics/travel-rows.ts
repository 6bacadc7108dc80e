// A journey found only at its event (another event's or workspace's id answers 404 notFound as if
// it did not exist), its view as this caller reads it, and the rule that a cancelled one stays so.

import type { TravelRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { problem } from '../platform/problems';
import { travelView } from './travel-view';

/** The row at its event (loadEventRow). */
export function loadTravel(ctx: Ctx, eventId: string, id: string): Promise<TravelRow> {
  return loadEventRow(ctx, 'travel', eventId, id, 'travel');
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
