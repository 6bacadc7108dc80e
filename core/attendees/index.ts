export { activeTicketIds } from './active-tickets';
export { attendeeErased, attendeeRegistered, emitForAttendees } from './attendee-messages';
export {
  type AttendeeJoinedRow,
  type AttendeeView,
  attendeePersonal,
  attendeeQuery,
  attendeeSchema,
  attendeeView,
} from './attendee-view';
export { cancelAttendee } from './cancel-attendee';
export { cancelOrderTickets, cancelTickets } from './cancel-tickets';
export { getAttendee } from './get-attendee';
export { listAttendees } from './list-attendees';
export {
  attendeeByCodeQuery,
  attendeeByIdQuery,
  attendeeOrProblem,
  findAttendeeByCode,
} from './load-attendee';
export { needsApproval } from './needs-approval';
export { type PublicTicket, publicTicket, publicTicketCalendar } from './public-ticket';
export { registerAttendees } from './register-attendees';
export {
  type CheckedRegistration,
  checkRegistration,
  newAttendeeSchema,
  optionalText,
} from './registration-input';
export { writeRegistration } from './registration-order';
export { refuseFullAtRead, takeRegistrationPlacesLast } from './registration-places';
export { freePrices, type RegistrationPrices, registrationPrices } from './registration-prices';
export { releaseWhatTicketsHold } from './release-held';
export { resendTicket } from './resend-ticket';
export { searchAttendees } from './search-attendees';
export {
  checkTicketHolder,
  codeInScan,
  scannedTicketSchema,
  type TicketHolderInput,
  ticketHolderFields,
  ticketHolderId,
} from './ticket-holder';
export { touchOrderAndAttendees } from './touch-order';
export { updateAttendee } from './update-attendee';
