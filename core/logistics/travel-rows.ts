// A journey found only at its event (another event's or workspace's id answers 404 notFound as if
// it did not exist), its view as this caller reads it.

import type { TravelRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { travelView } from './travel-view';

/** The row at its event (loadEventRow). */
export function loadTravel(ctx: Ctx, eventId: string, id: string): Promise<TravelRow> {
  return loadEventRow(ctx, 'travel', eventId, id, 'travel');
}

export async function travelNow(ctx: Ctx, eventId: string, id: string) {
  return travelView(await loadTravel(ctx, eventId, id), ctx.actor);
}
