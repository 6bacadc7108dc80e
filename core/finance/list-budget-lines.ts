import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { budgetLineSchema, budgetLineView } from './budget-line-view';

export const listBudgetLines = defineOperation({
  name: 'listBudgetLines',
  title: 'List budget lines',
  description:
    "Lists an event's budget lines, oldest change first, with amounts net of VAT and their VAT rate: what the budget summary adds up. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  module: 'budget',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(budgetLineSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'budgetLines', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('budget_lines').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('budget_lines')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => budgetLineView(row, event.currency));
  },
});
