import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { int32, uuid } from '../platform/schemas';
import { byLanguage, questionsOf } from './survey-questions';
import { questionResultSchema, resultsOf } from './survey-results';

export const getSurveyResults = defineOperation({
  name: 'getSurveyResults',
  title: 'Get survey results',
  description:
    "Totals one survey's answers per question (counts, averages, NPS, texts), anonymously. Needs surveys:read.",
  scope: 'surveys:read',
  effect: 'read',
  module: 'feedback',
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), surveyId: uuid('The survey id.') }),
  output: v.object({
    surveyId: uuid('The survey id.'),
    eventId: uuid('The event id.'),
    title: byLanguage('Its title.'),
    responses: int32('How many answered the survey.'),
    results: v.array(questionResultSchema),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const survey = await ctx.db
      .selectFrom('surveys')
      .selectAll()
      .where('id', '=', input.surveyId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!survey) throw problem('notFound', `No survey ${input.surveyId} in this event.`);
    const answers = await ctx.db
      .selectFrom('survey_responses')
      .select('answers')
      .where('survey_id', '=', survey.id)
      .orderBy('submitted_utc')
      .orderBy('id')
      .execute();
    return {
      surveyId: survey.id,
      eventId: event.id,
      title: JSON.parse(survey.title) as Record<string, string>,
      responses: answers.length,
      results: resultsOf(
        questionsOf(survey.questions),
        answers.map((a) => JSON.parse(a.answers) as Record<string, unknown>),
      ),
    };
  },
});
