export { confirmPayment } from './confirm-payment';
export { createOrder } from './create-order';
export { getOrder } from './get-order';
export { getSalesPace } from './get-sales-pace';
export { listOrders } from './list-orders';
export { refundOrder } from './refund-order';
