export { getBudget } from './get-budget';
export { getInvoice } from './get-invoice';
export { listInvoices } from './list-invoices';
