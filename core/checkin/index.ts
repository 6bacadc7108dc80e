export { checkInAttendee } from './check-in-attendee';
export { createDoor } from './create-door';
export { deleteDoor } from './delete-door';
export { getCheckInSummary } from './get-check-in-summary';
export { listCheckIns } from './list-check-ins';
export { listDoors } from './list-doors';
export { updateDoor } from './update-door';
export { uploadOfflineScans } from './upload-offline-scans';
