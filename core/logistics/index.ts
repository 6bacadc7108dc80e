// Speakers' and crew's logistics: hotel stays and journeys, arranged by the organiser.
export { assignStay } from './assign-stay';
export { bookTravel } from './book-travel';
export { cancelStay } from './cancel-stay';
export { cancelTravel } from './cancel-travel';
export { deleteStay } from './delete-stay';
export { deleteTravel } from './delete-travel';
export { getStay } from './get-stay';
export { getTravel } from './get-travel';
export { listStays } from './list-stays';
export { listTravel } from './list-travel';
export { requestStay } from './request-stay';
export { stayChanged, stayStatusEmitters } from './stay-messages';
export { stayPersonal, staySchema } from './stay-view';
export { travelChanged } from './travel-messages';
export { travelPersonal, travelSchema } from './travel-view';
export { updateStay } from './update-stay';
export { updateTravel } from './update-travel';
export { linkedPeople, resolveWhoFor, whoForFields, whoForViewEntries } from './who-for';
