// The feedback family's message: feedback.given, data = { event, feedback }, for a survey answer or
// a session rating; it never says who gave it.
import type { SessionRatingsTable, SurveyResponsesTable } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events/event-view';
import { messageEmitter } from '../platform/storage/message-emitter';

export type FeedbackChange = { event: EventRefSource } & (
  | { answer: Pick<SurveyResponsesTable, 'id' | 'survey_id' | 'submitted_utc'> }
  | { rating: Pick<SessionRatingsTable, 'id' | 'session_id' | 'stars' | 'rated_utc'> }
);

function feedbackOf(change: FeedbackChange) {
  if ('answer' in change) {
    const { answer } = change;
    return {
      feedbackId: answer.id,
      surveyId: answer.survey_id,
      sessionId: null,
      rating: null,
      answeredUtc: answer.submitted_utc,
    };
  }
  const { rating } = change;
  return {
    feedbackId: rating.id,
    surveyId: null,
    sessionId: rating.session_id,
    rating: rating.stars,
    answeredUtc: rating.rated_utc,
  };
}

export const feedbackGiven = messageEmitter('feedback.given', (change: FeedbackChange) => ({
  eventId: change.event.id,
  data: { event: eventRef(change.event), feedback: feedbackOf(change) },
}));
