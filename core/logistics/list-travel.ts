import * as v from 'valibot';
import { travelStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { travelSchema, travelView } from './travel-view';

export const listTravel = defineOperation({
  name: 'listTravel',
  title: 'List journeys',
  description:
    "Lists an event's journeys booked for speakers and crew, oldest change first; filter by status. Names and booking references need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    status: v.optional(v.pipe(v.picklist(travelStatuses), v.description('booked or cancelled.'))),
    ...cursorFields,
  }),
  output: pageOf(travelSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'travel',
      filters: { eventId: event.id, status: input.status },
    });
    let query = ctx.db.selectFrom('travel').selectAll().where('event_id', '=', event.id);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('travel')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => travelView(row, ctx.actor));
  },
});
