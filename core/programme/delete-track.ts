import * as v from 'valibot';
import { callNamingTrack } from '../cfp/call-naming-track';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { trackView } from './track-view';

export const deleteTrack = defineOperation({
  name: 'deleteTrack',
  title: 'Remove a track',
  description:
    "Removes a track no session or submission has and the call for speakers does not offer; otherwise it is refused (inUse, naming them): give them another track first, and take it out of the call's trackIds. Needs program:write.",
  scope: 'program:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound', 'inUse'],
  ifMatch: {
    async current(ctx, input) {
      return trackView(await loadEventRow(ctx, 'tracks', input.eventId, input.trackId, 'track'));
    },
  },
  activity: { resourceType: 'track', resourceId: (_input, removed) => removed.trackId },
  input: v.object({ eventId: uuid('The event id.'), trackId: uuid('The track id.') }),
  output: v.object({ trackId: uuid('The track removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Locked: a session or submission given it meanwhile is waited for and counted, or finds it gone.
    const track = await loadEventRow(ctx, 'tracks', event.id, input.trackId, 'track', 'removal');
    const ids = async (table: 'sessions' | 'submissions') =>
      (await ctx.db.selectFrom(table).select('id').where('track_id', '=', track.id).execute()).map(
        (r) => r.id,
      );
    // A track is the programme's colour coding: detaching it silently would change what people see.
    refuseWhileUsed(
      `The track ${track.name}`,
      [
        dependentsOf('session', await ids('sessions')),
        dependentsOf('submission', await ids('submissions')),
        await callNamingTrack(ctx, event.id, track.id),
      ],
      "give them another track (or none) first, and take it out of the call for speakers' trackIds.",
    );
    await ctx.db.deleteFrom('tracks').where('id', '=', track.id).execute();
    return { trackId: track.id, deleted: true as const };
  },
});
