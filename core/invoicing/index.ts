// Invoices and credit notes written for paid and cancelled orders, and the seller's invoicing
// settings. The only way into core/invoicing.
export { invoicingSchema, loadInvoicing } from './invoicing-view';
export { creditCancelledTickets, invoicePaidOrder } from './issue-documents';
export { sellerSchema } from './seller';
export { ticketLines, ticketsAmountMinor } from './ticket-lines';
