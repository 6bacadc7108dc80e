import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyOrder, finishOrderedPage } from '../platform/pipeline/ordered-keyset';
import { cursorFields, pageOf, planPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { crewOnShifts } from './assignments';
import { shiftQuery } from './crew-rows';
import { shiftSchema, shiftView } from './crew-view';

export const listShifts = defineOperation({
  name: 'listShifts',
  title: 'List shifts',
  description:
    "Lists an event's crew shifts in time order: role, place, times, places open, who is on each. Needs crew:read.",
  scope: 'crew:read',
  effect: 'read',
  module: 'crew',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(shiftSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'shifts', filters: { eventId: event.id } });
    const query = shiftQuery(ctx.db).where('shifts.event_id', '=', event.id);
    // Time order is not change order: updatedSince is a filter here, the keyset stays (start, id).
    const rows = await applyOrder(
      query,
      plan,
      [
        { by: 'shifts.starts_utc', direction: 'asc' },
        { by: 'shifts.id', direction: 'asc' },
      ],
      { updated: 'shifts.updated_utc', txn: 'shifts.change_txn' },
    ).execute();
    const crew = await crewOnShifts(
      ctx.db,
      rows.slice(0, plan.limit).map((row) => row.id),
    );
    return finishOrderedPage(
      ctx,
      plan,
      rows,
      (row) => [row.starts_utc, row.id],
      (row) => shiftView(event, row, crew.get(row.id)!),
    );
  },
});
