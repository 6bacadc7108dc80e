// One survey answer or session rating as the API shows it (the Feedback resource, also the
// feedback of feedback.given): what was answered or rated and when, never who gave it.
import * as v from 'valibot';
import type { SessionRatingsTable, SurveyResponsesTable } from '../../db/schema';
import { dateTime, uuid } from '../platform/schemas';

/** One answer to a survey or one rating of a session; never who gave it. */
export const feedbackSchema = v.object({
  feedbackId: uuid('The feedback id.'),
  surveyId: v.nullable(uuid('The survey answered, for survey answers.')),
  sessionId: v.nullable(uuid('The session rated, for a session rating.')),
  rating: v.nullable(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5), v.description('Stars, 1 to 5.')),
  ),
  answeredUtc: dateTime('When it was given.'),
});

export type FeedbackSource =
  | { answer: Pick<SurveyResponsesTable, 'id' | 'survey_id' | 'submitted_utc'> }
  | { rating: Pick<SessionRatingsTable, 'id' | 'session_id' | 'stars' | 'rated_utc'> };

export function feedbackView(source: FeedbackSource) {
  if ('answer' in source) {
    const { answer } = source;
    return {
      feedbackId: answer.id,
      surveyId: answer.survey_id,
      sessionId: null,
      rating: null,
      answeredUtc: answer.submitted_utc,
    };
  }
  const { rating } = source;
  return {
    feedbackId: rating.id,
    surveyId: null,
    sessionId: rating.session_id,
    rating: rating.stars,
    answeredUtc: rating.rated_utc,
  };
}
