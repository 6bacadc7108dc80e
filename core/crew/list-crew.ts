import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { shiftsOfCrew } from './assignments';
import { crewMemberQuery } from './crew-rows';
import { crewMemberSchema, crewMemberView } from './crew-view';

export const listCrew = defineOperation({
  name: 'listCrew',
  title: 'List crew',
  description:
    "Lists an event's crew with roles, crew ticket and shifts. Name, email and phone need people:read. Needs crew:read.",
  scope: 'crew:read',
  effect: 'read',
  module: 'crew',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(crewMemberSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'crew', filters: { eventId: event.id } });
    const query = crewMemberQuery(ctx.db).where('crew_members.event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('crew_members')));
    const shifts = await shiftsOfCrew(
      ctx.db,
      rows.slice(0, plan.limit).map((row) => row.id),
    );
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      crewMemberView(ctx.actor, row, shifts.get(row.id)!),
    );
  },
});
