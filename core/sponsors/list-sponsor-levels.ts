import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyOrder, finishOrderedPage } from '../platform/pipeline/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { sponsorLevelSchema, sponsorLevelView } from './sponsor-level-view';

export const listSponsorLevels = defineOperation({
  name: 'listSponsorLevels',
  title: 'List sponsor levels',
  description:
    "Lists an event's sponsor levels, highest first, with what each includes. Needs sponsors:read.",
  scope: 'sponsors:read',
  effect: 'read',
  module: 'sponsors',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(sponsorLevelSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'sponsorLevels', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('sponsor_levels').selectAll().where('event_id', '=', event.id);
    const rows = await applyOrder(
      query,
      plan,
      [
        { by: 'sponsor_levels.rank', direction: 'desc' },
        { by: 'sponsor_levels.id', direction: 'asc' },
      ],
      { updated: 'sponsor_levels.updated_utc', txn: 'sponsor_levels.change_txn' },
    ).execute();
    return finishOrderedPage(ctx, plan, rows, (row) => [row.rank, row.id], sponsorLevelView);
  },
});
