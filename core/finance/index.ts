export { getBudget } from './get-budget';
export { getInvoice } from './get-invoice';
export { getInvoicing } from './get-invoicing';
export { listInvoices } from './list-invoices';
export { updateInvoicing } from './update-invoicing';
