import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { type Dependent, dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { trackTag } from './programme-tags';

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
  ifMatch: trackTag,
  activity: { resourceType: 'track', resourceId: (_input, removed) => removed.trackId },
  input: v.object({ eventId: uuid('The event id.'), trackId: uuid('The track id.') }),
  output: v.object({ trackId: uuid('The track removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held by invoke for removal (ifMatch.hold): a session or submission given it meanwhile is waited for
    // and counted, or finds it gone.
    const track = await loadEventRow(ctx, 'tracks', event.id, input.trackId, 'track');
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
        await callOffering(ctx, event.id, track.id),
      ],
      "give them another track (or none) first, and take it out of the call for speakers' trackIds.",
    );
    await ctx.db.deleteFrom('tracks').where('id', '=', track.id).execute();
    return { trackId: track.id, deleted: true as const };
  },
});

/**
 * The event's call for speakers (named by the event's id, its only key) when its trackIds offer the
 * track: refused as a ticket type a door or code names is (core/tickets/naming-rows.ts), since
 * dropping it from the list quietly would change what speakers may choose. Read from its row here:
 * the call's module (core/cfp) builds on the programme, not the other way round.
 */
async function callOffering(ctx: Ctx, eventId: string, trackId: string): Promise<Dependent> {
  const call = await ctx.db
    .selectFrom('calls_for_speakers')
    .select('track_ids')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  const offered = call !== undefined && (JSON.parse(call.track_ids) as string[]).includes(trackId);
  return dependentsOf('callForSpeakers', offered ? [eventId] : []);
}
