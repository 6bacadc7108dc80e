// Import of an event's sales: ticket types, add-ons, discount codes, questions, and orders with
// their attendees (planned in ./orders.ts), as the file gives them (./sales-format.ts). Counters the
// service keeps (taken, used) are counted from the imported tickets afterwards, never read from the file.
import { flag, json } from '../plan';
import { type EventScope, eachItem, owned, refList } from '../scope';
import { type Orders, type Prices, planOrders } from './orders';
import type { SalesInput } from './sales-format';

export function planSales(
  scope: EventScope,
  input: SalesInput,
  defaultLanguage: string,
  orders: Orders,
): void {
  const prices: Prices = new Map();
  planAddOns(scope, input, prices);
  planTicketTypes(scope, input, prices);
  planDiscountCodes(scope, input);
  planQuestions(scope, input);
  // Orders are many: planned once, their rows kept compressed an order at a time until written.
  scope.plan.bulk(planOrders(scope, input, orders, defaultLanguage, prices));
}

/** The columns a ticket type and an add-on share; keeps the price for the orders. */
function priced(
  scope: EventScope,
  prices: Prices,
  table: 'ticket_types' | 'add_ons',
  item: { key: string; name: string; price: number; vatRate: number; capacity: number | null },
  path: string,
  i: number,
) {
  const minor = scope.plan.minor(item.price, scope.currency, `${path}.price`);
  prices.set(`${table}/${item.key}`, { minor, vat: item.vatRate });
  return {
    name: item.name,
    price_minor: minor,
    vat_rate: item.vatRate,
    capacity: item.capacity,
    sort_order: i + 1,
  };
}

function planAddOns(scope: EventScope, input: SalesInput, prices: Prices): void {
  eachItem(scope, input, 'addOns', (a, path, i) => {
    const id = scope.plan.claim('addOn', scope.eventKey, a.key, path);
    scope.plan.add(
      'add_ons',
      { ...owned(scope, id), ...priced(scope, prices, 'add_ons', a, path, i), description: a.description },
      path,
      { taken: 0 },
    );
  });
}

function planTicketTypes(scope: EventScope, input: SalesInput, prices: Prices): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'ticketTypes', (t, path, i) => {
    const id = plan.claim('ticketType', ek, t.key, path);
    if ((t.visibility === 'code') !== (t.accessCode !== null))
      plan.issue(`${path}.accessCode`, 'An access code goes with visibility code, and only with it.');
    const [salesStart, salesEnd] = plan.period(t.salesStartUtc, t.salesEndUtc, path, [
      'salesStartUtc',
      'salesEndUtc',
    ]);
    plan.add(
      'ticket_types',
      {
        ...owned(scope, id),
        ...priced(scope, prices, 'ticket_types', t, path, i),
        description: t.description,
        max_per_order: t.maxPerOrder,
        visibility: t.visibility,
        access_code: t.accessCode,
        requires_approval: flag(t.requiresApproval),
        crew: flag(t.crew),
        sales_start_utc: salesStart,
        sales_end_utc: salesEnd,
        included_add_on_ids: refList(scope, 'addOn', t.includedAddOns, `${path}.includedAddOns`, 'add-on'),
      },
      path,
      { taken: 0 },
    );
  });
}

function planDiscountCodes(scope: EventScope, input: SalesInput): void {
  const { plan, eventKey: ek, currency } = scope;
  const codes = new Map<string, string>();
  eachItem(scope, input, 'discountCodes', (d, path) => {
    const id = plan.claim('discountCode', ek, d.key, path);
    if ((d.percent === null) === (d.amount === null))
      plan.issue(`${path}.percent`, 'Give either percent or amount.');
    const codeKey = d.code.toUpperCase();
    if (codes.has(codeKey))
      plan.issue(`${path}.code`, `The code ${d.code} is already used by ${codes.get(codeKey)}.`);
    codes.set(codeKey, path);
    const [from, until] = plan.period(d.validFromUtc, d.validUntilUtc, path, [
      'validFromUtc',
      'validUntilUtc',
    ]);
    plan.add(
      'discount_codes',
      {
        ...owned(scope, id),
        code: d.code,
        code_key: codeKey,
        percent: d.percent,
        amount_minor: d.amount === null ? null : plan.minor(d.amount, currency, `${path}.amount`),
        max_uses: d.maxUses,
        valid_from_utc: from,
        valid_until_utc: until,
        ticket_type_ids: refList(scope, 'ticketType', d.ticketTypes, `${path}.ticketTypes`, 'ticket type'),
      },
      path,
      { used: 0 },
    );
  });
}

function planQuestions(scope: EventScope, input: SalesInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'questions', (q, path, i) => {
    const id = plan.claim('question', ek, q.key, path);
    const choice = q.kind === 'choice' || q.kind === 'multiChoice';
    if (choice !== q.options.length > 0)
      plan.issue(`${path}.options`, 'Options go with choice and multiChoice questions, and only with them.');
    plan.add(
      'questions',
      {
        ...owned(scope, id),
        label: json(q.label),
        kind: q.kind,
        required: flag(q.required),
        options: json(q.options),
        max_length: q.maxLength,
        ticket_type_ids: refList(scope, 'ticketType', q.ticketTypes, `${path}.ticketTypes`, 'ticket type'),
        sort_order: i + 1,
      },
      path,
    );
  });
}
