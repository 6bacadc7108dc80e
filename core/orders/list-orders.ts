import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import {
  applyPlan,
  cursorFields,
  finishPage,
  legacyPageFields,
  legacyPageOf,
  planPage,
  readPage,
} from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { orderStatuses } from '../sales';
import { orderQuery } from './order-query';
import { orderSchema, orderView } from './order-view';

export const listOrders = defineOperation({
  name: 'listOrders',
  title: 'List orders',
  description:
    "Lists an event's orders with status, totals and buyer (null without people:read). For selling speed use get_sales_pace. Needs orders:read.",
  scope: 'orders:read',
  effect: 'read',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...cursorFields,
    ...legacyPageFields,
    status: v.optional(
      v.pipe(
        v.picklist(orderStatuses),
        v.description('Only orders in this status, in every order and paging mode.'),
      ),
    ),
  }),
  output: legacyPageOf(orderSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const status = input.status;
    const plan = planPage(ctx, input, {
      list: 'orders',
      filters: { eventId: event.id, status },
      legacy: true,
    });
    let query = orderQuery(ctx.db).where('orders.event_id', '=', event.id);
    if (status) query = query.where('orders.status', '=', status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('orders')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      orderView(ctx.actor, row, Number(row.attendee_count ?? 0)),
    );
  },
});
