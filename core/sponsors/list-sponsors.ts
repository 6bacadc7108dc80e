import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyOrder, finishOrderedPage } from '../platform/pipeline/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { levelRank, sponsorQuery, sponsorSchema, sponsorView } from './sponsor-view';

export const listSponsors = defineOperation({
  name: 'listSponsors',
  title: 'List sponsors',
  description: "Lists an event's sponsors in display order, with level, logo and booth. Needs sponsors:read.",
  scope: 'sponsors:read',
  effect: 'read',
  module: 'sponsors',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(sponsorSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'sponsors', filters: { eventId: event.id } });
    const query = sponsorQuery(ctx.db).where('sponsors.event_id', '=', event.id);
    const rows = await applyOrder(
      query,
      plan,
      [
        { by: levelRank, direction: 'desc' },
        { by: 'sponsors.sort_order', direction: 'asc' },
        { by: 'sponsors.id', direction: 'asc' },
      ],
      { updated: 'sponsors.updated_utc', txn: 'sponsors.change_txn' },
    ).execute();
    return finishOrderedPage(ctx, plan, rows, (row) => [row.level_rank, row.sort_order, row.id], sponsorView);
  },
});
