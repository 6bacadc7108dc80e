// The budget summary, computed from the event's budget lines on every call (never kept totals):
// income, costs and result (income less costs) as budgeted, committed, actual and forecast, and the
// same per category. Every amount is net of VAT, in the event's currency.
import * as v from 'valibot';
import type { BudgetLineRow } from '../../db/schema';
import { type BudgetLineKind, budgetLineKinds } from '../../db/values';
import { toMajor } from '../platform/money';
import { int32, text } from '../platform/schemas';

/** The income category of ticket sales: break-even asks how many tickets cover what the rest does not. */
export const ticketIncomeCategory = 'tickets';

const stages = ['budgeted', 'committed', 'actual', 'forecast'] as const;
type Stage = (typeof stages)[number];
export type Figures = Record<Stage, number>;

const amount = (description: string) =>
  v.pipe(v.number(), v.description(`${description} Net of VAT, with the currency's own decimals.`));

export const figuresSchema = v.object({
  budgeted: amount('As budgeted.'),
  committed: amount('Agreed so far (contracts signed, orders placed).'),
  actual: amount('Received or paid so far.'),
  forecast: amount('Expected in the end.'),
});

export const budgetCategorySchema = v.object({
  category: text("The category, in the organiser's words (tickets, sponsorship, venue, catering, ...)."),
  kind: v.pipe(v.picklist(budgetLineKinds), v.description('income or cost.')),
  lines: int32('Budget lines in it.'),
  ...figuresSchema.entries,
});

export interface CategoryTotals extends Figures {
  category: string;
  kind: BudgetLineKind;
  lines: number;
}

const zero = (): Figures => ({ budgeted: 0, committed: 0, actual: 0, forecast: 0 });

function add(into: Figures, line: BudgetLineRow): void {
  into.budgeted += line.budgeted_minor;
  into.committed += line.committed_minor;
  into.actual += line.actual_minor;
  into.forecast += line.forecast_minor;
}

/** Totals in minor units: income, costs, result, and each category (income first, then by name). */
export function totalsOf(lines: BudgetLineRow[]) {
  const income = zero();
  const costs = zero();
  const categories = new Map<string, CategoryTotals>();
  for (const line of lines) {
    add(line.kind === 'income' ? income : costs, line);
    const key = `${line.kind}/${line.category}`;
    const category = categories.get(key) ?? { category: line.category, kind: line.kind, lines: 0, ...zero() };
    add(category, line);
    category.lines += 1;
    categories.set(key, category);
  }
  const result = Object.fromEntries(stages.map((s) => [s, income[s] - costs[s]])) as Figures;
  // By code point, so the order is the same on every machine.
  const byName = (a: CategoryTotals, b: CategoryTotals) =>
    a.category < b.category ? -1 : a.category > b.category ? 1 : 0;
  const ordered = [...categories.values()].sort(
    (a, b) => budgetLineKinds.indexOf(a.kind) - budgetLineKinds.indexOf(b.kind) || byName(a, b),
  );
  return { income, costs, result, categories: ordered };
}

/** Figures in minor units shown in the currency. */
export function shown(figures: Figures, currency: string): Figures {
  return Object.fromEntries(stages.map((s) => [s, toMajor(figures[s], currency)])) as Figures;
}
