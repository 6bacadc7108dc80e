import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { addOnSchema, addOnView } from './add-on-view';

export const listAddOns = defineOperation({
  name: 'listAddOns',
  title: 'List add-ons',
  description:
    "Lists an event's add-ons (extras such as a workshop seat or a dinner) with price, capacity and how many are held. Needs tickets:read.",
  scope: 'tickets:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(addOnSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'addOns', filters: { eventId: event.id } });
    const rows = await readPage(
      ctx.db,
      applyPlan(
        ctx.db.selectFrom('add_ons').selectAll().where('event_id', '=', event.id),
        plan,
        keysetOf('add_ons'),
      ),
    );
    return finishPage(ctx, plan, rows, positionOfRow, (row) => addOnView(event, row));
  },
});
