export { approveOrder } from './approve-order';
export { cardPaymentEvents } from './card-payment-events';
export { confirmCheckoutReturn, openCheckoutForBuyer } from './card-return';
export { confirmPayment } from './confirm-payment';
export { createOrder } from './create-order';
export { declineOrder } from './decline-order';
export { getOrder } from './get-order';
export { getSalesPace, salesPaceSchema } from './get-sales-pace';
export { paidOrderSchema, refundedOrderSchema } from './issued-documents';
export { listOrders } from './list-orders';
export { orderApproved, orderDeclined, orderPaid } from './order-messages';
export type { ElsewhereMethod, OrderPaymentInput } from './order-payment';
export { orderQuery } from './order-query';
export { orderPersonal, orderSchema } from './order-view';
export { type PaymentMethod, paymentMethods, payOrder } from './pay-order';
export { eventAtSlug, type PublicOrder, publicOrder } from './public-order';
export {
  type FormError,
  type PublicPerson,
  type PublicRegistration,
  registeredTickets,
  registerFromPublicPage,
} from './public-registration';
export { reconcileCardPayments } from './reconcile-card-payments';
export { refundOrder } from './refund-order';
