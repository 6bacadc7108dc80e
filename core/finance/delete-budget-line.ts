import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { loadBudgetLine } from './budget-line-fields';
import { budgetLineView } from './budget-line-view';

export const deleteBudgetLine = defineOperation({
  name: 'deleteBudgetLine',
  title: 'Remove a budget line',
  description:
    "Removes a budget line; the budget summary no longer counts it. Nothing depends on a line (it is the organiser's plan, not a document). Needs finance:write.",
  scope: 'finance:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'budget',
  activity: { resourceType: 'budgetLine', resourceId: (_input, out) => out.lineId },
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('budget_lines', (input) => input.lineId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return budgetLineView(await loadBudgetLine(ctx, event.id, input.lineId), event.currency);
    },
  },
  input: v.object({ eventId: uuid('The event id.'), lineId: uuid('The budget line id.') }),
  output: v.object({ lineId: uuid('The budget line removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const line = await loadBudgetLine(ctx, event.id, input.lineId);
    await deleteEventRow(ctx, 'budget_lines', line.id, 'budget line');
    return { lineId: line.id, deleted: true as const };
  },
});
