import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { text, uuid } from '../platform/schemas';
import { breakEvenOf, breakEvenSchema } from './break-even';
import { budgetCategorySchema, figuresSchema, shown, totalsOf } from './budget-summary';

export const budgetSummarySchema = v.object({
  eventId: uuid('The event id.'),
  currency: text("ISO 4217 currency: the event's; every amount is in it, net of VAT."),
  income: figuresSchema,
  costs: figuresSchema,
  result: v.pipe(figuresSchema, v.description('Income less costs, stage by stage; negative is a loss.')),
  categories: v.pipe(
    v.array(budgetCategorySchema),
    v.description('Each category with its totals: income categories first, then costs, each by name.'),
  ),
  breakEven: breakEvenSchema,
});

export const getBudget = defineOperation({
  name: 'getBudget',
  title: 'Get the budget summary',
  description:
    "Returns an event's budget, net of VAT: income, costs and result as budgeted, committed, actual and forecast, and break-even. Needs finance:read.",
  scope: 'finance:read',
  effect: 'read',
  module: 'budget',
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: budgetSummarySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const lines = await ctx.db
      .selectFrom('budget_lines')
      .selectAll()
      .where('event_id', '=', event.id)
      .orderBy('change_txn')
      .orderBy('change_seq')
      .execute();
    const totals = totalsOf(lines);
    return {
      eventId: event.id,
      currency: event.currency,
      income: shown(totals.income, event.currency),
      costs: shown(totals.costs, event.currency),
      result: shown(totals.result, event.currency),
      categories: totals.categories.map((c) => ({
        category: c.category,
        kind: c.kind,
        lines: c.lines,
        ...shown(c, event.currency),
      })),
      breakEven: await breakEvenOf(ctx, event, lines),
    };
  },
});
