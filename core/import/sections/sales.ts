// Import of an event's sales: ticket types, add-ons, discount codes, questions, and orders with
// their attendees (planned in ./orders.ts). Counters the service keeps (taken, used) are counted from the imported tickets
// afterwards, never read from the file.
import * as v from 'valibot';
import {
  attendeeStatuses,
  orderSources,
  orderStatuses,
  questionKinds,
  ticketVisibilities,
} from '../../../db/values';
import { ownRecord } from '../../platform/own-record';
import { oneLine } from '../../platform/schemas';
import { amount, email, key, language, list, name, orFalse, orNull, ref, utc, whole, words } from '../fields';
import { flag, json } from '../plan';
import { type EventScope, eachItem, owned, refList } from '../scope';
import { type Orders, type Prices, planOrders } from './orders';

const vatRate = v.optional(
  v.pipe(v.number(), v.minValue(0), v.maxValue(100), v.description('VAT rate in percent (default 0).')),
  0,
);
const byLanguage = v.pipe(
  ownRecord(language, v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(500))),
  v.description('Text by language tag: { "en": "Diet", "nb": "Kosthold" }.'),
);

export const ticketTypeFormat = v.strictObject({
  key: key('ticket type'),
  name: name('Name, 1 to 200 characters.'),
  description: v.optional(words('Description.'), ''),
  price: v.optional(amount('Price, VAT included'), 0),
  vatRate,
  capacity: orNull(whole('How many can be sold; null (the default) when unlimited.')),
  maxPerOrder: v.optional(whole('1 to 100 (default 10).', 1, 100), 10),
  visibility: v.optional(v.picklist(ticketVisibilities), 'public'),
  accessCode: orNull(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{3,40}$/), v.description('With visibility code.')),
  ),
  requiresApproval: orFalse('An order waits for organiser approval.'),
  crew: orFalse('Crew tickets: left out of registered counts and the sales pace.'),
  salesStartUtc: orNull(utc('Sales open')),
  salesEndUtc: orNull(utc('Sales close')),
  includedAddOns: list(ref('add-on'), 'Keys of add-ons included as a bundle.', 20),
});

export const addOnFormat = v.strictObject({
  key: key('add-on'),
  name: name('Name, 1 to 200 characters.'),
  description: orNull(words('Description.')),
  price: v.optional(amount('Price, VAT included'), 0),
  vatRate,
  capacity: orNull(whole('How many can be sold; null when unlimited.')),
});

export const discountCodeFormat = v.strictObject({
  key: key('discount code'),
  code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{3,40}$/), v.description('The code buyers type.')),
  percent: orNull(v.pipe(v.number(), v.minValue(0.01), v.maxValue(100), v.description('Percent off.'))),
  amount: orNull(amount('Amount off each ticket')),
  maxUses: orNull(whole('Tickets it may be used for.', 1)),
  validFromUtc: orNull(utc('Usable from')),
  validUntilUtc: orNull(utc('Usable until')),
  ticketTypes: list(ref('ticket type'), 'Keys of the ticket types it applies to; empty: all.'),
});

export const questionFormat = v.strictObject({
  key: key('question'),
  label: byLanguage,
  kind: v.picklist(questionKinds),
  required: orFalse('An answer is required.'),
  options: list(
    v.strictObject({
      value: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(100)),
      label: byLanguage,
    }),
    'The choices of a choice or multiChoice question.',
    100,
  ),
  maxLength: orNull(whole('Longest answer, in characters.', 1)),
  ticketTypes: list(ref('ticket type'), 'Keys of the ticket types it is asked for; empty: all.'),
});

export const attendeeFormat = v.strictObject({
  key: key('attendee'),
  ticketType: ref('ticket type'),
  firstName: orNull(name('First name. Personal data.')),
  lastName: orNull(name('Last name. Personal data.')),
  email: orNull(email('Email address. Personal data.')),
  company: orNull(name('Company. Personal data.')),
  jobTitle: orNull(name('Job title. Personal data.')),
  language: v.optional(language),
  answers: orNull(
    v.pipe(
      ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
      v.description('Answers keyed by question key. Personal data.'),
    ),
  ),
  status: v.optional(v.picklist(attendeeStatuses), 'active'),
  cancelledUtc: orNull(utc('When the ticket was cancelled')),
  checkedInUtc: orNull(utc('First check-in at the main entrance, as the other system recorded it')),
  addOns: list(
    v.strictObject({ addOn: ref('add-on'), quantity: v.optional(whole('How many.', 1, 100), 1) }),
    'Add-ons on this ticket.',
    50,
  ),
});

export const orderFormat = v.strictObject({
  key: key('order'),
  reference: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9-]{3,40}$/),
      v.description('The order reference; made from the key when absent (the same one every import).'),
    ),
  ),
  status: v.picklist(orderStatuses),
  buyer: v.strictObject({
    name: orNull(name('Name. Personal data.')),
    email: orNull(email('Email address. Personal data.')),
    company: orNull(name('Company. Personal data.')),
  }),
  language: v.optional(language),
  total: v.optional(amount('Total, VAT included; the sum of its tickets and add-ons when absent')),
  vat: v.optional(amount('VAT in the total; computed from the lines when absent')),
  paymentProvider: orNull(name('Who took the payment.', 100)),
  paidUtc: orNull(utc('When it was paid')),
  createdUtc: v.optional(utc('When it was placed (default: the time of the import)')),
  source: v.optional(v.picklist(orderSources), 'registration'),
  discountCode: orNull(ref('discount code')),
  attendees: list(attendeeFormat, 'Its tickets.', 100),
});

export const salesFormat = {
  ticketTypes: list(ticketTypeFormat, 'Ticket types.', 500),
  addOns: list(addOnFormat, 'Add-ons.', 500),
  discountCodes: list(discountCodeFormat, 'Discount codes.', 10_000),
  questions: list(questionFormat, 'Registration questions.', 200),
  orders: list(orderFormat, 'Orders with their attendees.'),
};

export type SalesInput = Omit<v.InferOutput<v.ObjectSchema<typeof salesFormat, undefined>>, 'orders'>;
export type OrderInput = v.InferOutput<typeof orderFormat>;

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
