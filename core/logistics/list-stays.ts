import * as v from 'valibot';
import { stayStatuses } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { staySchema, stayView } from './stay-view';

export const listStays = defineOperation({
  name: 'listStays',
  title: 'List hotel stays',
  description:
    "Lists an event's hotel stays (speakers, crew, attendees), oldest change first; filter by status. Names and email need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    status: v.optional(v.pipe(v.picklist(stayStatuses), v.description('requested, assigned or cancelled.'))),
    ...cursorFields,
  }),
  output: pageOf(staySchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'stays',
      filters: { eventId: event.id, status: input.status },
    });
    let query = ctx.db.selectFrom('stays').selectAll().where('event_id', '=', event.id);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('stays')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => stayView(row, ctx.actor));
  },
});
