// The order family's message: order.paid, data = { event, order }, the order as paid.
import type { OrderRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { orderView } from './order-view';

export interface OrderChange {
  event: EventRefSource;
  /** The order as orderQuery reads it, with its count of tickets. */
  order: OrderRow & { attendee_count: number | null };
}

export const orderPaid = messageEmitter('order.paid', ({ event, order }: OrderChange) => ({
  eventId: event.id,
  data: {
    event: eventRef(event),
    order: orderView('unredacted', order, Number(order.attendee_count ?? 0)),
  },
}));
