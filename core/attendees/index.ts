// The event's e-mail log (core/mail): what attendees and buyers were sent, in the attendees' area.
export { getEmail } from '../mail/get-email';
export { listEmails } from '../mail/list-emails';
export { cancelAttendee } from './cancel-attendee';
export { getAttendee } from './get-attendee';
export { listAttendees } from './list-attendees';
export { registerAttendees } from './register-attendees';
export { resendTicket } from './resend-ticket';
export { searchAttendees } from './search-attendees';
export { updateAttendee } from './update-attendee';
