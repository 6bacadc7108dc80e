// Order statuses and what they mean for places and validity.
import { type OrderStatus, orderStatuses } from '../../db/values';

export { type OrderStatus, orderStatuses };

/** A ticket is valid when it is not cancelled and its order is paid or free. */
export const validOrderStatuses: readonly OrderStatus[] = ['paid', 'free'];

/** Orders holding places whose payment is under way. */
export const awaitingPaymentStatuses: readonly OrderStatus[] = [
  'pending',
  'onAccount',
  'transfer',
  'requested',
];

/** Orders whose payment may be confirmed (mark-paid): a requested one waits for approval first. */
export const payableStatuses: readonly OrderStatus[] = awaitingPaymentStatuses.filter(
  (s) => s !== 'requested',
);

/** Orders in these statuses hold their places (the ticket types' taken counts them). */
export const placeHoldingStatuses: readonly OrderStatus[] = [
  ...validOrderStatuses,
  ...awaitingPaymentStatuses,
];

export function holdsPlaces(status: string): boolean {
  return (placeHoldingStatuses as readonly string[]).includes(status);
}

export function isValidTicket(attendeeStatus: string, orderStatus: string): boolean {
  return attendeeStatus === 'active' && (validOrderStatuses as readonly string[]).includes(orderStatus);
}
