import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/list-keyset';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import {
  applyPlan,
  cursorFields,
  finishPage,
  legacyPageFields,
  legacyPageOf,
  planPage,
} from '../platform/paging';
import { uuid } from '../platform/schemas';
import { orderQuery } from './order-query';
import { orderStatuses } from './order-status';
import { orderSchema, orderView } from './order-view';

export const listOrders = defineOperation({
  name: 'listOrders',
  title: 'List orders',
  description:
    "Lists an event's orders with status, totals (VAT included, in the currency's own decimals) and buyer details (null without people:read). Oldest change first by default (sort=changed), or newest first (sort=-created); status filters the newest-first list. Cursor paging with updatedSince for syncing; page/pageSize kept for older clients. Needs orders:read.",
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
        v.description('Only orders in this status; applies when the list is newest first (sort=-created).'),
      ),
    ),
  }),
  output: legacyPageOf(orderSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const status = input.sort === '-created' ? input.status : undefined;
    const plan = planPage(ctx, input, {
      list: 'orders',
      filters: { eventId: event.id, status },
      legacy: true,
    });
    let query = orderQuery(ctx.db).where('orders.event_id', '=', event.id);
    if (status) query = query.where('orders.status', '=', status);
    const rows = await applyPlan(query, plan, keysetOf('orders')).execute();
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      orderView(ctx.actor, row, Number(row.attendee_count ?? 0)),
    );
  },
});
