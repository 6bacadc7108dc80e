export { createAddOn } from './create-add-on';
export { createDiscountCode } from './create-discount-code';
export { createTicketType } from './create-ticket-type';
export { getTicketType } from './get-ticket-type';
export { listAddOns } from './list-add-ons';
export { listDiscountCodes } from './list-discount-codes';
export { listTicketTypes } from './list-ticket-types';
export { updateTicketType } from './update-ticket-type';
