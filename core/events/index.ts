export { createEvent } from './create-event';
export { deleteEvent } from './delete-event';
export { getEvent } from './get-event';
export { getEventStats } from './get-event-stats';
export { listEvents } from './list-events';
export { getAnswersSchema, listQuestions } from './list-questions';
export { setEventStatus } from './set-event-status';
export { updateEvent } from './update-event';
