// Session ratings: how the event's sessions were rated, 1 to 5 stars, computed from the ratings as
// they are now and never saying who rated: for the event as a whole and for each session in
// programme order (a session nobody rated shows count 0 and no average), with the comments given.
import * as v from 'valibot';
import { averageOf } from '../platform/average';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { int32, text, uuid } from '../platform/schemas';

const tally = {
  count: int32('How many ratings.'),
  average: v.nullable(
    v.pipe(v.number(), v.description('Average stars (1 to 5, two decimals); null without ratings.')),
  ),
  distribution: v.pipe(
    v.array(v.pipe(v.number(), v.integer())),
    v.description('How many gave 1, 2, 3, 4 and 5 stars, in that order.'),
  ),
};

function tallyOf(stars: number[]) {
  const distribution = [1, 2, 3, 4, 5].map((s) => stars.filter((x) => x === s).length);
  return { count: stars.length, average: averageOf(stars), distribution };
}

export const getSessionRatings = defineOperation({
  name: 'getSessionRatings',
  title: 'Get session ratings',
  description:
    "Returns an event's session star ratings (1 to 5), overall and per session: count, average, spread. Needs surveys:read.",
  scope: 'surveys:read',
  effect: 'read',
  module: 'feedback',
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.object({
    eventId: uuid('The event id.'),
    event: v.object(tally),
    sessions: v.array(
      v.object({
        sessionId: uuid('The session.'),
        title: text('Its title.'),
        ...tally,
        comments: v.pipe(
          v.array(v.string()),
          v.description('The comments given with its ratings, oldest first (a Tessera extension).'),
        ),
      }),
    ),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const sessions = await ctx.db
      .selectFrom('sessions')
      .select(['id', 'title'])
      .where('event_id', '=', event.id)
      .orderBy('starts_utc')
      .orderBy('id')
      .execute();
    const ratings = await ctx.db
      .selectFrom('session_ratings')
      .select(['session_id', 'stars', 'comment'])
      .where('event_id', '=', event.id)
      .orderBy('rated_utc')
      .orderBy('id')
      .execute();
    return {
      eventId: event.id,
      event: tallyOf(ratings.map((r) => r.stars)),
      sessions: sessions.map((s) => ({
        sessionId: s.id,
        title: s.title,
        ...tallyOf(ratings.filter((r) => r.session_id === s.id).map((r) => r.stars)),
        comments: ratings.flatMap((r) => (r.session_id === s.id && r.comment ? [r.comment] : [])),
      })),
    };
  },
});
