// Removing a survey removes its answers with it: an answer means something only against the
// questions it answered, results are computed from the stored answers of a survey that exists, and
// the answers name no one, so nothing is lost that could be shown elsewhere. To stop answers and
// keep the results, close the survey instead (update_survey closesUtc).
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { loadSurvey, surveyView } from './load-survey';

export const deleteSurvey = defineOperation({
  name: 'deleteSurvey',
  title: 'Remove a survey',
  description:
    'Removes a survey and every answer given to it (its results go too); to stop answers and keep the results, close it with update_survey instead. Needs surveys:write.',
  scope: 'surveys:write',
  effect: 'destructive',
  extension: true,
  module: 'feedback',
  repeatable: true,
  ifMatch: {
    hold: heldRow('surveys', (input) => input.surveyId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return surveyView(ctx, event, await loadSurvey(ctx, event, input.surveyId));
    },
  },
  activity: { resourceType: 'survey', resourceId: (_input, deleted) => deleted.surveyId },
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), surveyId: uuid('The survey id.') }),
  output: v.object({ surveyId: uuid('The survey removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Its row first, held for removal by invoke (ifMatch.hold): an answer writes the survey before its own
    // row (a second answer waits on the first's), so removing the answers first met it in a circle on
    // PostgreSQL.
    const survey = await loadSurvey(ctx, event, input.surveyId);
    // Said here rather than left to the foreign key's cascade, so it holds whatever the store's settings.
    await ctx.db.deleteFrom('survey_responses').where('survey_id', '=', survey.id).execute();
    await deleteEventRow(ctx, 'surveys', survey.id, 'survey');
    return { surveyId: survey.id, deleted: true as const };
  },
});
