export { checkInAttendee } from './check-in-attendee';
export { getCheckInSummary } from './get-check-in-summary';
export { listCheckIns } from './list-check-ins';
export { listDoors } from './list-doors';
export { uploadOfflineScans } from './upload-offline-scans';
