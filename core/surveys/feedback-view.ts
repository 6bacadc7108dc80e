// One survey answer or session rating as the API shows it (the Feedback resource, also the
// feedback of feedback.given): what was answered or rated and when, never who gave it.
import type { SessionRatingsTable, SurveyResponsesTable } from '../../db/schema';

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
