import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { trackSchema, trackView } from './track-view';

export const listTracks = defineOperation({
  name: 'listTracks',
  title: 'List tracks',
  description: "Lists an event's programme tracks with colour and description. Needs program:read.",
  scope: 'program:read',
  effect: 'read',
  module: 'program',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(trackSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'tracks', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('tracks').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('tracks')));
    return finishPage(ctx, plan, rows, positionOfRow, trackView);
  },
});
