// The call for speakers as a dependent of a track its trackIds name: a track's removal is refused
// while the call offers it, as a ticket type's is while a door or code names it
// (core/tickets/naming-rows.ts). Dropping it from the list quietly would change what speakers may
// choose, and an emptied list offers no track at all.

import type { Ctx } from '../platform/context';
import { type Dependent, dependentsOf } from '../platform/in-use';
import { loadCall } from './call-view';

/** The event's call for speakers (named by the event's id, its only key) when it offers the track. */
export async function callNamingTrack(ctx: Ctx, eventId: string, trackId: string): Promise<Dependent> {
  const call = await loadCall(ctx, eventId);
  return dependentsOf('callForSpeakers', call.trackIds.includes(trackId) ? [eventId] : []);
}
