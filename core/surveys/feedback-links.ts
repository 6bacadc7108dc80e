// Survey answers and session ratings keep who gave them only so each person gives one; erasure cuts
// that link and keeps the answer, so results stay as they were.
import { declareAttendeeLink } from '../platform/pipeline/personal-data';

export const surveyAnswerLink = declareAttendeeLink({
  resource: 'survey answer',
  table: 'survey_responses',
  column: 'attendee_id',
});

export const sessionRatingLink = declareAttendeeLink({
  resource: 'session rating',
  table: 'session_ratings',
  column: 'attendee_id',
});
