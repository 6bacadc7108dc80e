import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyOrder, finishOrderedPage } from '../platform/pipeline/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { leaderboardEntrySchema, leaderboardEntryView, leaderboardQuery } from './leaderboard-view';

export const listSharekitLeaderboard = defineOperation({
  name: 'listSharekitLeaderboard',
  title: 'List the share-kit leaderboard',
  description:
    "Ranks an event's share-kit sharers by registrations brought, then clicks. Names need people:read. Needs sharekit:read.",
  scope: 'sharekit:read',
  effect: 'read',
  module: 'sharekit',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), cursor: cursorFields.cursor, limit: cursorFields.limit }),
  output: pageOf(leaderboardEntrySchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'sharekitLeaderboard', filters: { eventId: event.id } });
    const rows = await applyOrder(leaderboardQuery(ctx.db, event.id), plan, [
      { by: 'board.registrations', direction: 'desc' },
      { by: 'board.clicks', direction: 'desc' },
      { by: 'board.id', direction: 'asc' },
    ]).execute();
    return finishOrderedPage(
      ctx,
      plan,
      rows,
      (row) => [Number(row.registrations), Number(row.clicks), row.id],
      (row) => leaderboardEntryView(ctx.actor, row),
    );
  },
});
