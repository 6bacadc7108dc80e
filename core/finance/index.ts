export { createBudgetLine } from './create-budget-line';
export { deleteBudgetLine } from './delete-budget-line';
export { getBudget } from './get-budget';
export { getInvoice } from './get-invoice';
export { listBudgetLines } from './list-budget-lines';
export { listInvoices } from './list-invoices';
export { updateBudgetLine } from './update-budget-line';
