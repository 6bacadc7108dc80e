// Sample finance: an invoice for every ticket order that was paid at the summit, the meetup and the
// forum (NOK, JPY and KWD: two, zero and three decimals), read from the orders already made,
// numbered in issue order in each event's series; a credit note for each refunded summit order; one
// summit invoice stating its VAT in euros too. Budget lines for the summit and the forum in several
// categories (the meetup has its budget module off); their ticket income is read from the orders.
// Each invoicing event's settings print as its invoices do, so a payment made now continues the series.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';
import { SampleRandom } from './random';

interface Seller {
  enabled: boolean;
  sellerName: string;
  sellerAddress: string | null;
  sellerVatNumber: string | null;
  sellerRegistration: string | null;
  prefix: string;
  footer: string | null;
}

const organiser = {
  enabled: true,
  sellerName: 'Nordic Events AS',
  sellerAddress: 'Storgata 1, 0155 Oslo, Norway',
  sellerVatNumber: 'NO 912 345 678 MVA',
  sellerRegistration: 'Foretaksregisteret 912 345 678',
};

const sellers: Record<string, Seller> = {
  summit: { ...organiser, prefix: 'NPS-', footer: 'Payment within 14 days to 1503.12.34567.' },
  meetup: { ...organiser, prefix: 'TFM-', footer: null },
  // Outside the VAT area: no VAT number to print.
  forum: { ...organiser, sellerVatNumber: null, prefix: 'GDF-', footer: 'VAT does not apply.' },
};

const addresses = [
  'Karl Johans gate 22, 0159 Oslo',
  'Drottninggatan 5, 111 51 Stockholm',
  'Strøget 12, 1160 København',
  null,
];

/** NOK to EUR, for the one invoice whose VAT is stated in euros too. */
const eurPerNok = 0.0856;

const vatWithin = (total: number, rate: number) => Math.round(total - total / (1 + rate / 100));

export async function insertSampleFinance(db: Db, sample: SampleContext): Promise<void> {
  const random = new SampleRandom(1507);
  for (const [key, seller] of Object.entries(sellers)) {
    await insertInvoicing(db, sample, key, seller);
    await insertInvoices(db, sample, key, seller, random);
  }
  await insertBudget(db, sample, 'summit', summitBudget);
  await insertBudget(db, sample, 'forum', forumBudget);
}

/**
 * The event's invoicing settings, as its invoices print them: an order paid now is invoiced in the
 * same series (the summit also states VAT in euros, as one of its invoices does).
 */
async function insertInvoicing(db: Db, sample: SampleContext, key: string, seller: Seller): Promise<void> {
  const euros = key === 'summit';
  await db
    .insertInto('event_invoicing')
    .values({
      event_id: sample.id(`event/${key}`),
      workspace_id: sample.workspaceId,
      enabled: 1,
      seller_name: seller.sellerName,
      seller_address: seller.sellerAddress,
      seller_vat_number: seller.sellerVatNumber,
      seller_registration: seller.sellerRegistration,
      prefix: seller.prefix,
      footer: seller.footer,
      vat_currency: euros ? 'EUR' : null,
      vat_rate: euros ? eurPerNok : null,
      updated_utc: new Date(sample.day0.getTime() - 60 * 86_400_000).toISOString(),
    })
    .execute();
}

async function insertInvoices(
  db: Db,
  sample: SampleContext,
  key: string,
  seller: Seller,
  random: SampleRandom,
): Promise<void> {
  const eventId = sample.id(`event/${key}`);
  const latest = sample.day0.getTime() - 3_600_000;
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('paid_utc', 'is not', null)
    // Orders of tickets: a pass bought on this event (db/sample/passes.ts) is billed with its pass.
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('attendees').select('id').whereRef('attendees.order_id', '=', 'orders.id')),
    )
    .orderBy('paid_utc')
    .orderBy('id')
    .execute();
  const documents = orders.flatMap((order) => {
    const invoice = { order, kind: 'invoice' as const, issued: order.paid_utc! };
    if (order.status !== 'refunded' || key !== 'summit') return [invoice];
    // Refunded the day after payment, and never after the sample's day.
    const refunded = Math.min(Date.parse(order.paid_utc!) + 86_400_000, latest);
    return [invoice, { order, kind: 'creditNote' as const, issued: new Date(refunded).toISOString() }];
  });
  // Numbered in issue order: invoices and credit notes share the series.
  documents.sort((a, b) => (a.issued < b.issued ? -1 : a.issued > b.issued ? 1 : 0));
  const invoiceOf = new Map<string, string>();
  let converted = false;
  for (const [i, doc] of documents.entries()) {
    const { order } = doc;
    const id = sample.id(`invoice/${key}/${order.id}/${doc.kind}`);
    const sign = doc.kind === 'creditNote' ? -1 : 1;
    const lines = await linesOf(db, order.id);
    const total = lines.reduce((n, l) => n + l.total, 0) * sign;
    const vat = lines.reduce((n, l) => n + l.vat, 0) * sign;
    // One summit invoice to a buyer abroad states its VAT in euros too.
    const inEuros = key === 'summit' && doc.kind === 'invoice' && !converted && vat > 0 && i >= 2;
    if (inEuros) converted = true;
    const company = order.buyer_company;
    const withVatNumber = company !== null && random.next() < 0.4;
    await db
      .insertInto('invoices')
      .values({
        id,
        workspace_id: sample.workspaceId,
        event_id: eventId,
        order_id: order.id,
        kind: doc.kind,
        series_no: i + 1,
        number: `${seller.prefix}${String(i + 1).padStart(4, '0')}`,
        corrects_id: doc.kind === 'creditNote' ? invoiceOf.get(order.id)! : null,
        issued_utc: doc.issued,
        total_minor: total,
        vat_minor: vat,
        currency: order.currency,
        vat_currency: inEuros ? 'EUR' : null,
        vat_converted_minor: inEuros ? Math.round(vat * eurPerNok) : null,
        buyer_name: order.buyer_name,
        buyer_email: order.buyer_email,
        buyer_company: company,
        buyer_address: order.erased ? null : random.pick(addresses),
        buyer_vat_number: withVatNumber ? `SE55${random.int(10_000_000, 99_999_999)}01` : null,
        buyer_reference: company !== null && random.next() < 0.3 ? `PO-${random.int(1000, 9999)}` : null,
        // The buyer who erased their data at the summit shows nothing personal here either.
        erased: order.erased,
        seller: JSON.stringify(seller),
        created_utc: doc.issued,
        updated_utc: doc.issued,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    if (doc.kind === 'invoice') invoiceOf.set(order.id, id);
    for (const [n, line] of lines.entries()) {
      await db
        .insertInto('invoice_lines')
        .values({
          id: sample.id(`invoice-line/${id}/${n}`),
          invoice_id: id,
          ticket_type_id: line.ticketTypeId,
          add_on_id: line.addOnId,
          name: line.name,
          quantity: line.quantity * sign,
          unit_price_minor: line.unitPrice,
          vat_rate: line.vatRate,
          total_minor: line.total * sign,
          vat_minor: line.vat * sign,
          sort: n + 1,
        })
        .execute();
    }
  }
}

/** An order's lines: one per ticket type, and each bundled add-on at price 0 (it is in the ticket's price). */
async function linesOf(db: Db, orderId: string) {
  const tickets = await db
    .selectFrom('attendees')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select(['attendees.id', 'ticket_types.id as type_id', 'name', 'price_minor', 'vat_rate', 'sort_order'])
    .where('attendees.order_id', '=', orderId)
    .orderBy('sort_order')
    .execute();
  const bundled = await db
    .selectFrom('attendee_add_ons')
    .innerJoin('attendees', 'attendees.id', 'attendee_add_ons.attendee_id')
    .innerJoin('add_ons', 'add_ons.id', 'attendee_add_ons.add_on_id')
    .select(['attendees.ticket_type_id', 'add_ons.id', 'add_ons.name', 'add_ons.vat_rate', 'quantity'])
    .where('attendees.order_id', '=', orderId)
    .execute();
  const lines: {
    ticketTypeId: string;
    addOnId: string | null;
    name: string;
    quantity: number;
    unitPrice: number;
    vatRate: number;
    total: number;
    vat: number;
  }[] = [];
  for (const t of tickets) {
    const line = lines.find((l) => l.ticketTypeId === t.type_id && l.addOnId === null);
    if (line) line.quantity += 1;
    else
      lines.push({
        ticketTypeId: t.type_id,
        addOnId: null,
        name: t.name,
        quantity: 1,
        unitPrice: t.price_minor,
        vatRate: t.vat_rate,
        total: 0,
        vat: 0,
      });
  }
  for (const a of bundled) {
    const line = lines.find((l) => l.addOnId === a.id);
    if (line) line.quantity += a.quantity;
    else
      lines.push({
        ticketTypeId: a.ticket_type_id,
        addOnId: a.id,
        name: `${a.name} (included)`,
        quantity: a.quantity,
        unitPrice: 0,
        vatRate: a.vat_rate,
        total: 0,
        vat: 0,
      });
  }
  for (const line of lines) {
    line.total = line.quantity * line.unitPrice;
    line.vat = vatWithin(line.total, line.vatRate);
  }
  return lines;
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
