export { exportEventData } from './export-event-data';
