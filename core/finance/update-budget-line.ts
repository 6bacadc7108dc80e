import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { amountsFit, budgetLineFields, loadBudgetLine, textsNotBlank } from './budget-line-fields';
import { budgetLineSchema, budgetLineView } from './budget-line-view';

export const updateBudgetLine = defineOperation({
  name: 'updateBudgetLine',
  title: 'Change a budget line',
  description:
    'Changes a budget line; send only what changes (amounts net of VAT). The budget summary follows at once. Needs finance:write.',
  scope: 'finance:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'budget',
  activity: { resourceType: 'budgetLine', resourceId: (_input, line) => line.lineId },
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('budget_lines', (input) => input.lineId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return budgetLineView(await loadBudgetLine(ctx, event.id, input.lineId), event.currency);
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    lineId: uuid('The budget line id.'),
    ...changeFields(budgetLineFields),
    // In its place in the list: a change says what the forecast is, not what it defaults to.
    forecast: v.optional(
      v.pipe(budgetLineFields.forecast, v.description('Expected in the end, net of VAT.')),
    ),
  }),
  output: budgetLineSchema,
  rules: textsNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const line = await loadBudgetLine(ctx, event.id, input.lineId);
    const errors = new FieldErrors();
    amountsFit(input, event.currency, errors);
    errors.throwIfAny();
    const minor = (amount: number | undefined, current: number) =>
      amount === undefined ? current : toMinor(amount, event.currency);
    const next = {
      ...line,
      category: input.category?.trim() ?? line.category,
      name: input.name?.trim() ?? line.name,
      kind: input.kind ?? line.kind,
      budgeted_minor: minor(input.budgeted, line.budgeted_minor),
      committed_minor: minor(input.committed, line.committed_minor),
      actual_minor: minor(input.actual, line.actual_minor),
      forecast_minor: minor(input.forecast, line.forecast_minor),
      vat_rate: input.vatRate ?? line.vat_rate,
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'budget_lines', line.id, 'budget line', next);
    return budgetLineView(next, event.currency);
  },
});
