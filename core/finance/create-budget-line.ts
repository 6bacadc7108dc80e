import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { amountsFit, budgetLineFields, textsNotBlank } from './budget-line-fields';
import { budgetLineSchema, budgetLineView } from './budget-line-view';

export const createBudgetLine = defineOperation({
  name: 'createBudgetLine',
  title: 'Add a budget line',
  description:
    "Adds a line to an event's budget: category, name, income or cost, and amounts net of VAT (budgeted; committed, actual and forecast) with the VAT rate on top. The budget summary counts it at once. Needs finance:write.",
  scope: 'finance:write',
  effect: 'write',
  idempotent: true,
  extension: true,
  module: 'budget',
  etag: true,
  activity: {
    resourceType: 'budgetLine',
    resourceId: (_input, line) => line.lineId,
    summary: (_input, line) => line.name,
  },
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(budgetLineFields, ['category', 'name', 'kind', 'budgeted']),
  }),
  output: budgetLineSchema,
  rules: textsNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    amountsFit(input, event.currency, errors);
    errors.throwIfAny();
    const minor = (amount: number) => toMinor(amount, event.currency);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      category: input.category.trim(),
      name: input.name.trim(),
      kind: input.kind,
      budgeted_minor: minor(input.budgeted),
      committed_minor: minor(input.committed ?? 0),
      actual_minor: minor(input.actual ?? 0),
      forecast_minor: minor(input.forecast ?? input.budgeted),
      vat_rate: input.vatRate ?? 0,
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('budget_lines').values(row).execute();
    return budgetLineView(row, event.currency);
  },
});
