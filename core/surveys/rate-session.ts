import * as v from 'valibot';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { multiLine, uuid } from '../platform/schemas';
import { feedbackGiven } from './feedback-messages';
import { feedbackSchema, feedbackView } from './feedback-view';
import { checkRespondent, respondentFields, respondentOf } from './respondent';

export const rateSession = defineOperation({
  name: 'rateSession',
  title: 'Rate a session',
  description:
    "Records an attendee's 1–5 star rating of a session with an optional comment, once per attendee and session (alreadyRated); get_session_ratings counts it, never saying who. Sends feedback.given. Needs surveys:write.",
  scope: 'surveys:write',
  effect: 'write',
  extension: true,
  module: 'feedback',
  idempotent: true,
  ticketCodes: true,
  // Who rated stays out of the log as everywhere else: the entry names the rating only.
  activity: { resourceType: 'feedback', resourceId: (_input, feedback) => feedback.feedbackId },
  problems: ['notFound', 'attendeeNotFound', 'alreadyRated'],
  unique: { 'session_ratings.session_id, session_ratings.attendee_id': 'alreadyRated' },
  input: v.object({
    eventId: uuid('The event id.'),
    sessionId: uuid('The session rated.'),
    ...respondentFields,
    stars: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(5),
      v.description('1 (poor) to 5 (excellent).'),
    ),
    comment: v.optional(
      v.pipe(
        v.string(),
        multiLine,
        v.maxLength(2000),
        v.description('What they would tell the speaker, at most 2000 characters.'),
      ),
    ),
  }),
  rules: checkRespondent,
  output: feedbackSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held as the rating will name it: a removal of the session meanwhile waits for this rating, or
    // has removed it and the rating answers notFound, not a foreign-key fault.
    const session = await loadEventRow(ctx, 'sessions', event.id, input.sessionId, 'session', 'reference');
    const attendeeId = await respondentOf(ctx, event, input);
    const comment = input.comment?.trim();
    const rating = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      session_id: session.id,
      stars: input.stars,
      comment: comment ? comment : null,
      rated_utc: ctx.clock.now().toISOString(),
      attendee_id: attendeeId,
    };
    await ctx.db.insertInto('session_ratings').values(rating).execute();
    await feedbackGiven.emit(ctx, { event, rating });
    return feedbackView({ rating });
  },
});
