// An event's waiting lists (or one ticket type's), oldest change first with cursor paging as every
// list: each entry with its status, its place in line while waiting, and its offer's times.
import * as v from 'valibot';
import { waitingStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { placesInLine, waitingEntrySchema, waitingEntryView } from './entry-view';

export const listWaitingList = defineOperation({
  name: 'listWaitingList',
  title: 'List a waiting list',
  description:
    "Lists who waits for an event's sold-out ticket types: place in line, status, offer times. Names and e-mail need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ticketTypeId: v.optional(uuid('Only this type.')),
    status: v.optional(v.pipe(v.picklist(waitingStatuses), v.description('Only this status.'))),
    ...cursorFields,
  }),
  output: pageOf(waitingEntrySchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'waitingList',
      filters: { eventId: event.id, ticketTypeId: input.ticketTypeId ?? null, status: input.status ?? null },
    });
    let query = ctx.db.selectFrom('waiting_list_entries').selectAll().where('event_id', '=', event.id);
    if (input.ticketTypeId !== undefined) query = query.where('ticket_type_id', '=', input.ticketTypeId);
    if (input.status !== undefined) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('waiting_list_entries')));
    const places = await placesInLine(ctx, rows);
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      waitingEntryView(ctx, row, places.get(row.id) ?? null),
    );
  },
});
