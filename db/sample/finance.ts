// Sample finance: invoices and credit notes for the paid ticket orders (db/sample/invoices.ts), and
// budget lines for the summit and the forum in several categories (the meetup has its budget module
// off); their ticket income is read from the orders.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';
import { insertSampleInvoices } from './invoices';

export async function insertSampleFinance(db: Db, sample: SampleContext): Promise<void> {
  await insertSampleInvoices(db, sample);
  await insertBudget(db, sample, 'summit', summitBudget);
  await insertBudget(db, sample, 'forum', forumBudget);
}

interface BudgetLine {
  category: string;
  name: string;
  kind: 'income' | 'cost';
  /** Budgeted, committed, actual, forecast, in minor units; ticket income is read from the orders. */
  amounts: [number, number, number, number] | 'fromOrders';
  budgeted?: number;
}

const summitBudget: BudgetLine[] = [
  { category: 'tickets', name: 'Ticket sales', kind: 'income', amounts: 'fromOrders', budgeted: 42_000_000 },
  {
    category: 'sponsorship',
    name: 'Gold sponsors',
    kind: 'income',
    amounts: [15_000_000, 15_000_000, 10_000_000, 15_000_000],
  },
  {
    category: 'sponsorship',
    name: 'Silver sponsors',
    kind: 'income',
    amounts: [6_000_000, 4_500_000, 3_000_000, 5_000_000],
  },
  {
    category: 'venue',
    name: 'Konserthus hire',
    kind: 'cost',
    amounts: [18_000_000, 18_000_000, 9_000_000, 18_000_000],
  },
  {
    category: 'venue',
    name: 'Sound, light and streaming',
    kind: 'cost',
    amounts: [4_500_000, 4_000_000, 0, 4_200_000],
  },
  {
    category: 'catering',
    name: 'Lunch and coffee, two days',
    kind: 'cost',
    amounts: [12_000_000, 11_000_000, 0, 11_800_000],
  },
  {
    category: 'catering',
    name: 'Conference dinner',
    kind: 'cost',
    amounts: [6_000_000, 5_500_000, 0, 5_800_000],
  },
  {
    category: 'speakers',
    name: 'Travel and hotels',
    kind: 'cost',
    amounts: [7_000_000, 4_800_000, 1_200_000, 6_600_000],
  },
  { category: 'speakers', name: 'Keynote fees', kind: 'cost', amounts: [4_000_000, 4_000_000, 0, 4_000_000] },
  {
    category: 'marketing',
    name: 'Social ads',
    kind: 'cost',
    amounts: [3_000_000, 2_500_000, 1_800_000, 3_200_000],
  },
  {
    category: 'marketing',
    name: 'Print and signage',
    kind: 'cost',
    amounts: [1_500_000, 1_200_000, 0, 1_400_000],
  },
];

// KWD has three decimals: 4_500_000 is 4,500.000 KWD.
const forumBudget: BudgetLine[] = [
  {
    category: 'tickets',
    name: 'Delegate tickets',
    kind: 'income',
    amounts: 'fromOrders',
    budgeted: 4_500_000,
  },
  {
    category: 'sponsorship',
    name: 'Founding partner',
    kind: 'income',
    amounts: [3_000_000, 3_000_000, 1_500_000, 3_000_000],
  },
  {
    category: 'venue',
    name: 'Ballroom and AV',
    kind: 'cost',
    amounts: [5_250_750, 5_250_750, 2_625_375, 5_250_750],
  },
  {
    category: 'catering',
    name: 'Coffee and lunch',
    kind: 'cost',
    amounts: [1_800_500, 1_650_250, 0, 1_700_125],
  },
  {
    category: 'marketing',
    name: 'LinkedIn campaign',
    kind: 'cost',
    amounts: [600_000, 450_000, 300_125, 575_000],
  },
];

async function insertBudget(db: Db, sample: SampleContext, key: string, lines: BudgetLine[]): Promise<void> {
  const eventId = sample.id(`event/${key}`);
  const at = (days: number) =>
    new Date(sample.day0.getTime() + days * 86_400_000 + 9 * 3_600_000).toISOString();
  // Ticket income: paid orders net of VAT so far (actual), with those whose payment is under way
  // (committed), and the budget kept as the forecast when sales have not reached it yet.
  const net = async (statuses: string[]) => {
    const rows = await db
      .selectFrom('orders')
      .select(['total_minor', 'vat_minor', 'status'])
      .where('event_id', '=', eventId)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('attendees').select('id').whereRef('attendees.order_id', '=', 'orders.id')),
      )
      .execute();
    return rows
      .filter((o) => statuses.includes(o.status))
      .reduce((n, o) => n + o.total_minor - o.vat_minor, 0);
  };
  for (const [i, line] of lines.entries()) {
    let amounts = line.amounts;
    if (amounts === 'fromOrders') {
      const actual = await net(['paid']);
      const committed = await net(['paid', 'pending', 'onAccount', 'transfer', 'requested']);
      amounts = [line.budgeted!, committed, actual, Math.max(line.budgeted!, committed)];
    }
    const [budgeted, committed, actual, forecast] = amounts;
    await db
      .insertInto('budget_lines')
      .values({
        id: sample.id(`budget/${key}/${i}`),
        workspace_id: sample.workspaceId,
        event_id: eventId,
        category: line.category,
        name: line.name,
        kind: line.kind,
        budgeted_minor: budgeted,
        committed_minor: committed,
        actual_minor: actual,
        forecast_minor: forecast,
        created_utc: at(-50),
        updated_utc: at(-10 + i),
        change_seq: await nextChangeSeq(db),
      })
      .execute();
  }
}
