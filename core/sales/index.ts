// The rules of selling that orders, attendees, check-in and events share: order statuses, places
// taken, discount codes in use, totals, references, the free limit and venue days. The only way into core/sales.
export {
  codeAppliesTo,
  discountedPrice,
  releaseCodeUses,
  takeCodeUses,
  usableDiscountCode,
} from './discount-codes';
export { freeRegistrationLimit, registrationsAboveFreeLimit } from './free-limit';
export { insertOrder, type NewOrder } from './order-reference';
export {
  awaitingPaymentStatuses,
  holdsPlaces,
  isValidTicket,
  orderStatuses,
  payableStatuses,
  placeHoldingStatuses,
  validOrderStatuses,
} from './order-status';
export { orderTotals } from './order-totals';
export { givePlacesBack, placesLeft, takePlaces, totalCapacity } from './places';
export { countRegistered, registeredTickets } from './registered';
export { ticketTotals } from './ticket-totals';
export { venueDayBounds, venueDayOf } from './venue-days';
