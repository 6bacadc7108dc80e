import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { eventSchema, eventView } from './event-view';

export const listEvents = defineOperation({
  name: 'listEvents',
  title: 'List events',
  description:
    "Lists the workspace's events with their basics, optionally only the draft or only the published ones. Needs events:read.",
  scope: 'events:read',
  effect: 'read',
  problems: [],
  input: v.object({
    ...cursorFields,
    status: v.optional(v.pipe(v.picklist(['draft', 'published']), v.description('draft or published.'))),
  }),
  output: pageOf(eventSchema),
  async handler(ctx, input) {
    const plan = planPage(ctx, input, { list: 'events', filters: { status: input.status } });
    let query = ctx.db.selectFrom('events').selectAll().where('workspace_id', '=', ctx.actor.workspaceId);
    if (input.status) query = query.where('status', '=', input.status);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('events')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => eventView(ctx, row));
  },
});
