export { getSessionRatings } from './get-session-ratings';
export { getSurveyResults } from './get-survey-results';
export { listSurveys } from './list-surveys';
