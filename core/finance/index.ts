export { approveClaim } from './approve-claim';
export { budgetLineSchema } from './budget-line-view';
export { claimStatusEmitters } from './claim-messages';
export { claimPersonal, claimSchema } from './claim-view';
export { createBudgetLine } from './create-budget-line';
export { declineClaim } from './decline-claim';
export { deleteBudgetLine } from './delete-budget-line';
export { budgetSummarySchema, getBudget } from './get-budget';
export { getClaim } from './get-claim';
export { getInvoice } from './get-invoice';
export { getInvoicing } from './get-invoicing';
export {
  type InvoiceView,
  invoiceItemSchema,
  invoiceLineSchema,
  invoicePersonal,
  invoiceSchema,
  invoiceView,
} from './invoice-view';
export { listBudgetLines } from './list-budget-lines';
export { listClaims } from './list-claims';
export { listInvoices } from './list-invoices';
export { payClaim } from './pay-claim';
export { submitClaim } from './submit-claim';
export { updateBudgetLine } from './update-budget-line';
export { updateInvoicing } from './update-invoicing';
