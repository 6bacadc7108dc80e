export { createDiscountCode } from './create-discount-code';
export { getTicketType } from './get-ticket-type';
export { listAddOns } from './list-add-ons';
export { listDiscountCodes } from './list-discount-codes';
export { listTicketTypes } from './list-ticket-types';
export { updateTicketType } from './update-ticket-type';
