export { createSurvey } from './create-survey';
export { deleteSurvey } from './delete-survey';
export { getSessionRatings } from './get-session-ratings';
export { getSurveyResults } from './get-survey-results';
export { listSurveys } from './list-surveys';
export { rateSession } from './rate-session';
export { submitSurveyAnswer } from './submit-survey-answer';
export { updateSurvey } from './update-survey';
