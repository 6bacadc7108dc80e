import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { discountCodeSchema, discountCodeView } from './discount-code-view';

export const listDiscountCodes = defineOperation({
  name: 'listDiscountCodes',
  title: 'List discount codes',
  description:
    "Lists an event's discount codes with what they take off, their limits and how often they have been used. Needs tickets:read.",
  scope: 'tickets:read',
  effect: 'read',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(discountCodeSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'discountCodes', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('discount_codes').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('discount_codes')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => discountCodeView(event, row));
  },
});
