export { cancelAttendee } from './cancel-attendee';
export { getAttendee } from './get-attendee';
export { listAttendees } from './list-attendees';
export { registerAttendees } from './register-attendees';
export { searchAttendees } from './search-attendees';
export { updateAttendee } from './update-attendee';
