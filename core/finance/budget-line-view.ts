// The public BudgetLine resource: one line of an event's budget. Its amounts are net of VAT (what the
// budget summary adds up), in the event's currency; vatRate says what VAT applies on top.
import * as v from 'valibot';
import type { BudgetLineRow } from '../../db/schema';
import { budgetLineKinds } from '../../db/values';
import { toMajor } from '../platform/money';
import { dateTime, text, uuid } from '../platform/schemas';

const amount = (description: string) =>
  v.pipe(v.number(), v.description(`${description} Net of VAT, with the currency's own decimals.`));

export const budgetLineSchema = v.object({
  lineId: uuid('The budget line id.'),
  eventId: uuid('The event id.'),
  category: text("The category, in the organiser's words (tickets, sponsorship, venue, catering, ...)."),
  name: text('What the line is for.'),
  kind: v.pipe(v.picklist(budgetLineKinds), v.description('income or cost.')),
  budgeted: amount('As budgeted.'),
  committed: amount('Agreed so far (contracts signed, orders placed).'),
  actual: amount('Received or paid so far.'),
  forecast: amount('Expected in the end.'),
  vatRate: v.pipe(v.number(), v.description('VAT in percent on top of the net amounts (0: none).')),
  currency: text("ISO 4217: the event's."),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type BudgetLineView = v.InferOutput<typeof budgetLineSchema>;

export function budgetLineView(row: BudgetLineRow, currency: string): BudgetLineView {
  return {
    lineId: row.id,
    eventId: row.event_id,
    category: row.category,
    name: row.name,
    kind: row.kind,
    budgeted: toMajor(row.budgeted_minor, currency),
    committed: toMajor(row.committed_minor, currency),
    actual: toMajor(row.actual_minor, currency),
    forecast: toMajor(row.forecast_minor, currency),
    vatRate: row.vat_rate,
    currency,
    updatedUtc: row.updated_utc,
  };
}
