import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { passSchema, passViews } from './pass-view';

export const listPasses = defineOperation({
  name: 'listPasses',
  title: 'List passes',
  description:
    'Lists season passes and bundles with price, capacity and sales; filter by communityId or eventId. Needs tickets:read.',
  scope: 'tickets:read',
  effect: 'read',
  problems: [],
  input: v.object({
    communityId: v.optional(uuid("Only this community's season passes.")),
    eventId: v.optional(uuid('Only passes this event sells or admits to.')),
    ...cursorFields,
  }),
  output: pageOf(passSchema),
  async handler(ctx, input) {
    if (input.eventId !== undefined) await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'passes',
      filters: { workspaceId: ctx.actor.workspaceId, communityId: input.communityId, eventId: input.eventId },
      defaultSort: '-changed',
    });
    let query = ctx.db.selectFrom('passes').selectAll().where('workspace_id', '=', ctx.actor.workspaceId);
    if (input.communityId !== undefined) query = query.where('community_id', '=', input.communityId);
    const eventId = input.eventId;
    if (eventId !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('sales_event_id', '=', eventId),
          eb.exists(
            eb
              .selectFrom('pass_events')
              .select('pass_events.pass_id')
              .whereRef('pass_events.pass_id', '=', 'passes.id')
              .where('pass_events.event_id', '=', eventId),
          ),
        ]),
      );
    }
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('passes')));
    const views = await passViews(ctx, rows.slice(0, plan.limit));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => views.get(row.id)!);
  },
});
