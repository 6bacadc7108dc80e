// The order family's messages: order.paid, and the Tessera extensions order.approved and
// order.declined; data = { event, order }, the order as it is now.
import type { OrderRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { orderView } from './order-view';

export interface OrderChange {
  event: EventRefSource;
  /** The order as orderQuery reads it, with its count of tickets. */
  order: OrderRow & { attendee_count: number | null };
}

const orderMessage = ({ event, order }: OrderChange) => ({
  eventId: event.id,
  data: {
    event: eventRef(event),
    order: orderView('unredacted', order, Number(order.attendee_count ?? 0)),
  },
});

export const orderPaid = messageEmitter('order.paid', orderMessage);
export const orderApproved = messageEmitter('order.approved', orderMessage);
export const orderDeclined = messageEmitter('order.declined', orderMessage);
