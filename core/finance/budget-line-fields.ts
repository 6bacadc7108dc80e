// Input fields of a budget line, shared by adding and changing one, the rule that amounts fit the
// event's currency, and finding a line at its event.
import * as v from 'valibot';
import { budgetLineKinds } from '../../db/values';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { fitsCurrency } from '../platform/money';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { maxAmount, oneLine } from '../platform/schemas';

const amount = (description: string) =>
  v.pipe(
    v.number(),
    v.minValue(0),
    v.maxValue(maxAmount),
    v.description(`${description} Net of VAT, in the event's currency.`),
  );

export const budgetLineFields = {
  category: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(100),
    v.description(
      'tickets, sponsorship, venue, catering, ... (tickets is the ticket income break-even counts).',
    ),
  ),
  name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200), v.description('What the line is for.')),
  kind: v.pipe(v.picklist(budgetLineKinds), v.description('income or cost.')),
  budgeted: amount('As budgeted.'),
  committed: amount('Agreed so far. Default 0.'),
  actual: amount('Received or paid so far. Default 0.'),
  forecast: amount('Expected in the end. Default: budgeted.'),
  vatRate: v.pipe(
    v.number(),
    v.minValue(0),
    v.maxValue(100),
    v.description('VAT percent on top. Default 0.'),
  ),
};

export const amountNames = ['budgeted', 'committed', 'actual', 'forecast'] as const;

/** Amounts with more decimals than the currency has are refused, each named. */
export function amountsFit(
  input: Partial<Record<(typeof amountNames)[number], number>>,
  currency: string,
  errors: FieldErrors,
): void {
  for (const name of amountNames) {
    const value = input[name];
    if (value !== undefined && !fitsCurrency(value, currency))
      errors.add(name, `${currency} amounts have at most the currency's own decimals.`);
  }
}

/** The category and name a person gives cannot be blank. */
export function textsNotBlank(input: Record<string, unknown>, errors: FieldErrors): void {
  for (const name of ['category', 'name'])
    if (typeof input[name] === 'string' && (input[name] as string).trim() === '')
      errors.add(name, `The ${name} cannot be blank.`);
}

/** The event's budget line, 404 notFound otherwise. */
export function loadBudgetLine(ctx: Ctx, eventId: string, lineId: string) {
  return loadEventRow(ctx, 'budget_lines', eventId, lineId, 'budget line');
}
