import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/list-keyset';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage } from '../platform/paging';
import { uuid } from '../platform/schemas';
import { passSchema, passViews } from './pass-view';

export const listPasses = defineOperation({
  name: 'listPasses',
  title: 'List passes',
  description:
    "Lists the workspace's season passes and bundles, latest change first, with price, capacity, what is sold (sold, waiting, left) and per event the holders, opt-outs and seats held. Filter with communityId (a community's season passes) or eventId (passes that event sells, or admits to); an eventId not in the workspace answers 404 eventNotFound. Cursor paging (cursor, limit) and updatedSince. Needs tickets:read.",
  scope: 'tickets:read',
  effect: 'read',
  problems: [],
  input: v.object({
    communityId: v.optional(uuid('Only season passes of this community.')),
    eventId: v.optional(
      uuid('Only passes this event sells (its sales event) or admits to (one of its events).'),
    ),
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
    const rows = await applyPlan(query, plan, keysetOf('passes')).execute();
    const views = await passViews(ctx, rows.slice(0, plan.limit));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => views.get(row.id)!);
  },
});
