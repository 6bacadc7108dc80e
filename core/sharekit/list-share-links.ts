import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { shareLinkSchema, shareLinksOf, shareLinkView } from './share-link-view';

export const listShareLinks = defineOperation({
  name: 'listShareLinks',
  title: 'List share links',
  description:
    "Lists an event's share links (removed ones left out), oldest change first; filter by sharer. Names and counts are on the leaderboard. Needs sharekit:read.",
  scope: 'sharekit:read',
  effect: 'read',
  extension: true,
  module: 'sharekit',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    sharerId: v.optional(uuid('Only the links of this sharer.')),
    ...cursorFields,
  }),
  output: pageOf(shareLinkSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'shareLinks',
      filters: { eventId: event.id, sharerId: input.sharerId },
    });
    let query = shareLinksOf(ctx, event.id);
    if (input.sharerId) query = query.where('share_links.sharer_id', '=', input.sharerId);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('share_links')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => shareLinkView(ctx, event, row));
  },
});
