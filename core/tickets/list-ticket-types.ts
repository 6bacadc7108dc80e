import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { ticketTypeSchema, ticketTypeView } from './ticket-type-view';

export const listTicketTypes = defineOperation({
  name: 'listTicketTypes',
  title: 'List ticket types',
  description:
    "Lists an event's ticket types with price, VAT rate, capacity, places taken and left, sales window and visibility. Needs tickets:read.",
  scope: 'tickets:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(ticketTypeSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'ticketTypes', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('ticket_types').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('ticket_types')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => ticketTypeView(event, row));
  },
});
