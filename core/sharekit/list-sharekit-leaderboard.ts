import * as v from 'valibot';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { applyOrder, finishOrderedPage } from '../platform/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/paging';
import { uuid } from '../platform/schemas';
import { leaderboardEntrySchema, leaderboardEntryView, leaderboardQuery } from './leaderboard-view';

export const listSharekitLeaderboard = defineOperation({
  name: 'listSharekitLeaderboard',
  title: 'List the share-kit leaderboard',
  description:
    'Lists who shares an event with their personal share-kit links (attendees, speakers and sponsors), ranked by the registrations their links brought, then by clicks, then by sharer id; sharers equal on both share a rank (1, 2, 2, 4). Each entry has the clicks on their links, the registrations (tickets registered through a link and not cancelled) and when they last shared, all counted from the rows on every call. The name is personal data: null without people:read (personalData says withheld) and once erased; attendeeId, speakerId or sponsorId says who it is. Cursor paging (cursor, limit). Answers 409 moduleOff when the sharekit module is switched off. Needs sharekit:read.',
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
