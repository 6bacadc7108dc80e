export { createEvent } from './create-event';
export { getEvent } from './get-event';
export { listEvents } from './list-events';
export { updateEvent } from './update-event';
