export { offersCard, requireStripeConnected } from './card-offer';
export { createEvent } from './create-event';
export { deleteEvent } from './delete-event';
export { eventFields, resolveTimes, slugMessage, slugPattern } from './event-input';
export {
  type EventRefSource,
  eventRef,
  eventRefSchema,
  eventSchema,
  modulesSchema,
  venueSchema,
} from './event-view';
export { getEvent } from './get-event';
export { eventStatsSchema, getEventStats } from './get-event-stats';
export { getSignUp } from './get-sign-up';
export { listEvents } from './list-events';
export { getAnswersSchema, listQuestions } from './list-questions';
export { loadQuestions, questionOrder, questionsOf } from './load-questions';
export { type PublicEvent, type PublishedLink, publicEvent } from './public-event';
export { answerLineFaults, checkAnswer, type QuestionView, questionSchema, questionView } from './questions';
export { setEventStatus } from './set-event-status';
export { type OfferedType, type SignUpOffer, signUpOffer } from './sign-up-offer';
export { loadSignUp, signUpSchema } from './sign-up-settings';
export { type CalendarTicket, ticketCalendar } from './ticket-calendar';
export { updateEvent } from './update-event';
export { updateSignUp } from './update-sign-up';
export { venueProblem, venueSent } from './venue-rule';
