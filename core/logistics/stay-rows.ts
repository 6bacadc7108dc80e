// A stay found only at its event (another event's or workspace's id answers 404 notFound as if it
// did not exist), its view as this caller reads it.

import type { StayRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { stayView } from './stay-view';

/** The row at its event (loadEventRow). */
export function loadStay(ctx: Ctx, eventId: string, id: string): Promise<StayRow> {
  return loadEventRow(ctx, 'stays', eventId, id, 'stay');
}

export async function stayNow(ctx: Ctx, eventId: string, id: string) {
  return stayView(await loadStay(ctx, eventId, id), ctx.actor);
}
