// Import of an event's invoices and credit notes (with their lines) and its budget lines. A
// document's totals are the sums of its lines, never taken from the file; a credit note's lines take
// places back (negative quantities) and correct an invoice of the same file.
import * as v from 'valibot';
import { budgetLineKinds, invoiceKinds } from '../../../db/values';
import { isCurrency, vatWithin } from '../../platform/money';
import { oneLine } from '../../platform/schemas';
import { email, key, list, name, orNull, ref, utc, words } from '../fields';
import { type ImportPlan, json } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

export const invoiceFormat = v.strictObject({
  key: key('invoice'),
  kind: v.optional(v.picklist(invoiceKinds), 'invoice'),
  order: ref('order'),
  number: name('The number as printed, e.g. NS-2026-0001.', 40),
  corrects: orNull(ref('invoice (for a credit note)')),
  issuedUtc: utc('When it was issued'),
  vatCurrency: orNull(
    v.pipe(v.string(), oneLine, v.description('A second currency the VAT is also stated in.')),
  ),
  vatConverted: orNull(v.pipe(v.number(), v.description('The VAT in that currency.'))),
  buyer: orNull(
    v.strictObject({
      name: name('Name. Personal data.'),
      email: email('Email address. Personal data.'),
      company: orNull(name('Company. Personal data.')),
      address: orNull(words('Address. Personal data.', 500)),
      vatNumber: orNull(name('VAT number.', 40)),
      reference: orNull(name('Their reference (a purchase order).', 100)),
    }),
  ),
  seller: orNull(
    v.strictObject({
      enabled: v.boolean(),
      sellerName: name('The organiser, as printed.'),
      sellerAddress: orNull(words('Its address.', 500)),
      sellerVatNumber: orNull(name('Its VAT number.', 40)),
      sellerRegistration: orNull(name('Its company registration.', 100)),
      prefix: v.pipe(v.string(), oneLine, v.maxLength(20)),
      footer: orNull(words('Text printed at the foot.')),
    }),
  ),
  lines: v.pipe(
    v.array(
      v.strictObject({
        ticketType: ref('ticket type'),
        addOn: orNull(ref('add-on')),
        name: name('As the line shows it.'),
        quantity: v.pipe(v.number(), v.integer(), v.description('How many; negative on a credit note.')),
        unitPrice: v.pipe(v.number(), v.minValue(0), v.description('Price of one, VAT included.')),
        vatRate: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
      }),
    ),
    v.minLength(1),
    v.maxLength(500),
  ),
});

export const budgetLineFormat = v.strictObject({
  key: key('budget line'),
  category: name('Category, e.g. Venue.', 100),
  name: name('What it is.'),
  kind: v.picklist(budgetLineKinds),
  budgeted: v.optional(v.number(), 0),
  committed: v.optional(v.number(), 0),
  actual: v.optional(v.number(), 0),
  forecast: v.optional(v.number(), 0),
});

export const financeFormat = {
  invoices: list(invoiceFormat, 'Invoices and credit notes, in series order.'),
  budget: list(budgetLineFormat, 'Budget lines, net of VAT, in the currency of the event.', 5000),
};

type FinanceInput = v.InferOutput<v.ObjectSchema<typeof financeFormat, undefined>>;

type InvoiceInput = FinanceInput['invoices'][number];

export function planFinance(scope: EventScope, input: FinanceInput): void {
  planInvoices(scope, input);
  planBudget(scope, input);
}

function planInvoices(scope: EventScope, input: FinanceInput): void {
  const kinds = new Map(input.invoices.map((d) => [d.key, d.kind]));
  const places = new Map(input.invoices.map((d, i) => [d.key, i]));
  eachItem(scope, input, 'invoices', (d, path, i) => {
    const id = scope.plan.claim('invoice', scope.eventKey, d.key, path);
    checkInvoice(scope.plan, d, path, i, kinds, places);
    const totals = planInvoiceLines(scope, d, id, path);
    planInvoice(scope, d, id, path, i, totals);
  });
}

/** Refuses what a document corrects where it cannot, and a VAT currency given by half or unknown. */
function checkInvoice(
  plan: ImportPlan,
  d: InvoiceInput,
  path: string,
  i: number,
  kinds: Map<string, InvoiceInput['kind']>,
  places: Map<string, number>,
): void {
  if ((d.kind === 'creditNote') !== (d.corrects !== null))
    plan.issue(`${path}.corrects`, 'A credit note corrects an invoice; an invoice corrects nothing.');
  if (d.corrects !== null && kinds.get(d.corrects) === 'creditNote')
    plan.issue(`${path}.corrects`, 'A credit note corrects an invoice, not another credit note.');
  if (d.corrects !== null && (places.get(d.corrects) ?? -1) > i)
    plan.issue(
      `${path}.corrects`,
      'The invoice comes before the credit note that corrects it (series order).',
    );
  if ((d.vatCurrency === null) !== (d.vatConverted === null))
    plan.issue(`${path}.vatConverted`, 'Give vatCurrency and vatConverted together.');
  if (d.vatCurrency !== null && !isCurrency(d.vatCurrency))
    plan.issue(`${path}.vatCurrency`, `"${d.vatCurrency}" is not an ISO 4217 currency.`);
}

/** Plans a document's lines; answers its totals, the sums of its lines. */
function planInvoiceLines(
  scope: EventScope,
  d: InvoiceInput,
  id: string,
  path: string,
): { total: number; vat: number } {
  const { plan, eventKey: ek, currency } = scope;
  const credit = d.kind === 'creditNote';
  let total = 0;
  let vat = 0;
  d.lines.forEach((l, j) => {
    const at = `${path}.lines[${j}]`;
    if (credit ? l.quantity > 0 : l.quantity < 0)
      plan.issue(
        `${at}.quantity`,
        credit ? 'A credit note takes places back: 0 or less.' : 'An invoice bills 0 or more.',
      );
    const lineTotal = plan.minor(l.unitPrice, currency, `${at}.unitPrice`) * l.quantity;
    const lineVat = vatWithin(lineTotal, l.vatRate);
    total += lineTotal;
    vat += lineVat;
    plan.add(
      'invoice_lines',
      {
        id: plan.id('invoiceLine', `${ek}/${d.key}`, String(j)),
        invoice_id: id,
        ticket_type_id: plan.ref('ticketType', ek, l.ticketType, `${at}.ticketType`, 'ticket type'),
        add_on_id: plan.refOrNull('addOn', ek, l.addOn, `${at}.addOn`, 'add-on'),
        name: l.name,
        quantity: l.quantity,
        unit_price_minor: plan.minor(l.unitPrice, currency, `${at}.unitPrice`),
        vat_rate: l.vatRate,
        total_minor: lineTotal,
        vat_minor: lineVat,
        sort: j + 1,
      },
      at,
    );
  });
  return { total, vat };
}

function planInvoice(
  scope: EventScope,
  d: InvoiceInput,
  id: string,
  path: string,
  i: number,
  { total, vat }: { total: number; vat: number },
): void {
  const { plan, eventKey: ek, currency } = scope;
  const buyer = d.buyer;
  plan.add(
    'invoices',
    {
      ...owned(scope, id),
      order_id: plan.ref('order', ek, d.order, `${path}.order`, 'order'),
      kind: d.kind,
      series_no: i + 1,
      number: d.number,
      corrects_id: plan.refOrNull('invoice', ek, d.corrects, `${path}.corrects`, 'invoice'),
      issued_utc: plan.utc(d.issuedUtc, `${path}.issuedUtc`),
      total_minor: total,
      vat_minor: vat,
      currency,
      vat_currency: d.vatCurrency,
      vat_converted_minor:
        d.vatCurrency === null || d.vatConverted === null || !isCurrency(d.vatCurrency)
          ? null
          : plan.minor(d.vatConverted, d.vatCurrency, `${path}.vatConverted`),
      buyer_name: buyer?.name ?? null,
      buyer_email: buyer?.email ?? null,
      buyer_company: buyer?.company ?? null,
      buyer_address: buyer?.address ?? null,
      buyer_vat_number: buyer?.vatNumber ?? null,
      buyer_reference: buyer?.reference ?? null,
      seller: d.seller === null ? null : json(d.seller),
    },
    path,
    { erased: 0 },
  );
}

function planBudget(scope: EventScope, input: FinanceInput): void {
  const { plan, eventKey: ek, currency } = scope;
  eachItem(scope, input, 'budget', (b, path) => {
    plan.add(
      'budget_lines',
      {
        ...owned(scope, plan.claim('budgetLine', ek, b.key, path)),
        category: b.category,
        name: b.name,
        kind: b.kind,
        budgeted_minor: plan.minor(b.budgeted, currency, `${path}.budgeted`),
        committed_minor: plan.minor(b.committed, currency, `${path}.committed`),
        actual_minor: plan.minor(b.actual, currency, `${path}.actual`),
        forecast_minor: plan.minor(b.forecast, currency, `${path}.forecast`),
      },
      path,
    );
  });
}
