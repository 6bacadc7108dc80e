export { listCrew } from './list-crew';
export { listShifts } from './list-shifts';
