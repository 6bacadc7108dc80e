// Import of an event's sales: ticket types, add-ons, discount codes, questions, and orders with
// their attendees. Counters the service keeps (taken, used) are counted from the imported tickets
// afterwards, never read from the file.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import {
  attendeeStatuses,
  orderSources,
  orderStatuses,
  questionKinds,
  ticketVisibilities,
} from '../../../db/values';
import { ownRecord } from '../../platform/own-record';
import { lineFault, oneLine } from '../../platform/schemas';
import { newTicketCode } from '../../platform/ticket-codes';
import { amount, email, key, language, list, name, orFalse, orNull, ref, utc, whole, words } from '../fields';
import { flag, json } from '../plan';
import { type EventScope, owned } from '../scope';

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

type SalesInput = Omit<v.InferOutput<v.ObjectSchema<typeof salesFormat, undefined>>, 'orders'>;
export type OrderInput = v.InferOutput<typeof orderFormat>;
/** An event's orders, gone through one at a time (core/import/stored-orders.ts). */
type Orders = Iterable<OrderInput> & { references: ReadonlySet<string> };

const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A six-character reference made from the order's id, the same on every import of the file. */
function referenceFor(id: string, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const digest = createHash('sha256').update(`${id}/${attempt}`).digest();
    let reference = '';
    for (let i = 0; i < 6; i++) reference += alphabet[digest[i]! % alphabet.length];
    if (!taken.has(reference)) return reference;
  }
}

/** VAT inside a VAT-inclusive amount. */
const vatIn = (grossMinor: number, rate: number) => Math.round((grossMinor * rate) / (100 + rate));

export function planSales(
  scope: EventScope,
  input: SalesInput,
  defaultLanguage: string,
  orders: Orders,
): void {
  const { plan, eventKey: ek, currency } = scope;
  const prices = new Map<string, { minor: number; vat: number }>();
  const add = (
    table: 'ticket_types' | 'add_ons',
    item: { key: string; name: string; price: number; vatRate: number; capacity: number | null },
    path: string,
    i: number,
  ) => {
    const minor = plan.minor(item.price, currency, `${path}.price`);
    prices.set(`${table}/${item.key}`, { minor, vat: item.vatRate });
    return {
      name: item.name,
      price_minor: minor,
      vat_rate: item.vatRate,
      capacity: item.capacity,
      sort_order: i + 1,
    };
  };
  input.addOns.forEach((a, i) => {
    const path = `${scope.path}.addOns[${i}]`;
    const id = plan.claim('addOn', ek, a.key, path);
    plan.add(
      'add_ons',
      { ...owned(scope, id), ...add('add_ons', a, path, i), description: a.description },
      path,
      {
        taken: 0,
      },
    );
  });
  input.ticketTypes.forEach((t, i) => {
    const path = `${scope.path}.ticketTypes[${i}]`;
    const id = plan.claim('ticketType', ek, t.key, path);
    if ((t.visibility === 'code') !== (t.accessCode !== null))
      plan.issue(`${path}.accessCode`, 'An access code goes with visibility code, and only with it.');
    const salesStart = plan.utcOrNull(t.salesStartUtc, `${path}.salesStartUtc`);
    const salesEnd = plan.utcOrNull(t.salesEndUtc, `${path}.salesEndUtc`);
    plan.ordered(salesStart, salesEnd, `${path}.salesEndUtc`);
    plan.add(
      'ticket_types',
      {
        ...owned(scope, id),
        ...add('ticket_types', t, path, i),
        description: t.description,
        max_per_order: t.maxPerOrder,
        visibility: t.visibility,
        access_code: t.accessCode,
        requires_approval: flag(t.requiresApproval),
        crew: flag(t.crew),
        sales_start_utc: salesStart,
        sales_end_utc: salesEnd,
        included_add_on_ids: json(
          t.includedAddOns.map((k, j) => plan.ref('addOn', ek, k, `${path}.includedAddOns[${j}]`, 'add-on')),
        ),
      },
      path,
      { taken: 0 },
    );
  });
  const codes = new Map<string, string>();
  input.discountCodes.forEach((d, i) => {
    const path = `${scope.path}.discountCodes[${i}]`;
    const id = plan.claim('discountCode', ek, d.key, path);
    if ((d.percent === null) === (d.amount === null))
      plan.issue(`${path}.percent`, 'Give either percent or amount.');
    const codeKey = d.code.toUpperCase();
    if (codes.has(codeKey))
      plan.issue(`${path}.code`, `The code ${d.code} is already used by ${codes.get(codeKey)}.`);
    codes.set(codeKey, path);
    const from = plan.utcOrNull(d.validFromUtc, `${path}.validFromUtc`);
    const until = plan.utcOrNull(d.validUntilUtc, `${path}.validUntilUtc`);
    plan.ordered(from, until, `${path}.validUntilUtc`);
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
        ticket_type_ids: json(
          d.ticketTypes.map((k, j) =>
            plan.ref('ticketType', ek, k, `${path}.ticketTypes[${j}]`, 'ticket type'),
          ),
        ),
      },
      path,
      { used: 0 },
    );
  });
  input.questions.forEach((q, i) => {
    const path = `${scope.path}.questions[${i}]`;
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
        ticket_type_ids: json(
          q.ticketTypes.map((k, j) =>
            plan.ref('ticketType', ek, k, `${path}.ticketTypes[${j}]`, 'ticket type'),
          ),
        ),
        sort_order: i + 1,
      },
      path,
    );
  });
  // Orders are many: planned once, their rows kept compressed an order at a time until written.
  plan.bulk(planOrders(scope, input, orders, defaultLanguage, prices));
}

/** Plans the orders one at a time, pausing after each (its rows are then put away together). */
function* planOrders(
  scope: EventScope,
  input: SalesInput,
  orders: Orders,
  defaultLanguage: string,
  prices: Map<string, { minor: number; vat: number }>,
): Generator<void> {
  const { plan, eventKey: ek, currency } = scope;
  const references = new Set(orders.references);
  const questionIds = new Map(input.questions.map((q) => [q.key, plan.id('question', ek, q.key)]));
  // A long text answer may run over lines; every other text answer is one line (issue 50).
  const answerLines = new Map(
    input.questions.map((q) => [q.key, q.kind === 'longText' ? 'multi' : 'one'] as const),
  );
  let i = -1;
  for (const o of orders) {
    i++;
    const path = `${scope.path}.orders[${i}]`;
    const orderId = plan.claim('order', ek, o.key, path);
    const reference = o.reference ?? referenceFor(orderId, references);
    references.add(reference);
    const paidUtc = plan.utcOrNull(o.paidUtc, `${path}.paidUtc`);
    if ((o.status === 'paid') !== (paidUtc !== null) && o.status !== 'refunded')
      plan.issue(`${path}.paidUtc`, 'A paid order has paidUtc, and an unpaid one has none.');
    const createdUtc = o.createdUtc === undefined ? scope.now : plan.utc(o.createdUtc, `${path}.createdUtc`);
    let gross = 0;
    let vat = 0;
    const language = o.language ?? defaultLanguage;
    o.attendees.forEach((a, j) => {
      const at = `${path}.attendees[${j}]`;
      const attendeeId = plan.claim('attendee', ek, a.key, at);
      const ticketTypeId = plan.ref('ticketType', ek, a.ticketType, `${at}.ticketType`, 'ticket type');
      const price = prices.get(`ticket_types/${a.ticketType}`);
      if (price) {
        gross += price.minor;
        vat += vatIn(price.minor, price.vat);
      }
      if ((a.status === 'cancelled') !== (a.cancelledUtc !== null))
        plan.issue(`${at}.cancelledUtc`, 'A cancelled ticket has cancelledUtc, and an active one has none.');
      const answers =
        a.answers === null
          ? null
          : json(
              Object.fromEntries(
                Object.entries(a.answers).map(([k, answer]) => {
                  const id = questionIds.get(k);
                  if (!id) plan.issue(`${at}.answers.${k}`, `No question has the key "${k}" in this event.`);
                  const lines = answerLines.get(k);
                  const texts = Array.isArray(answer) ? answer : [answer];
                  const fault = lines
                    ? texts.map((t) => (typeof t === 'string' ? lineFault(t, lines) : null)).find(Boolean)
                    : null;
                  if (fault) plan.issue(`${at}.answers.${k}`, fault);
                  return [id ?? k, answer];
                }),
              ),
            );
      plan.add(
        'attendees',
        {
          ...owned(scope, attendeeId),
          order_id: orderId,
          ticket_type_id: ticketTypeId,
          first_name: a.firstName,
          last_name: a.lastName,
          email: a.email,
          company: a.company,
          job_title: a.jobTitle,
          language: a.language ?? language,
          answers,
          status: a.status,
          checked_in_utc: plan.utcOrNull(a.checkedInUtc, `${at}.checkedInUtc`),
          cancelled_utc: plan.utcOrNull(a.cancelledUtc, `${at}.cancelledUtc`),
        },
        at,
        { erased: 0, ticket_code: newTicketCode() },
      );
      plan.setOf(
        'attendee_add_ons',
        'attendee_id',
        attendeeId,
        a.addOns.map((x, k) => {
          const addOn = prices.get(`add_ons/${x.addOn}`);
          if (addOn) {
            gross += addOn.minor * x.quantity;
            vat += vatIn(addOn.minor, addOn.vat) * x.quantity;
          }
          return {
            attendee_id: attendeeId,
            add_on_id: plan.ref('addOn', ek, x.addOn, `${at}.addOns[${k}].addOn`, 'add-on'),
            quantity: x.quantity,
          };
        }),
      );
    });
    plan.add(
      'orders',
      {
        ...owned(scope, orderId),
        reference,
        status: o.status,
        buyer_name: o.buyer.name,
        buyer_email: o.buyer.email,
        buyer_company: o.buyer.company,
        language,
        total_minor: o.total === undefined ? gross : plan.minor(o.total, currency, `${path}.total`),
        vat_minor: o.vat === undefined ? vat : plan.minor(o.vat, currency, `${path}.vat`),
        currency,
        payment_provider: o.paymentProvider,
        paid_utc: paidUtc,
        source: o.source,
        discount_code_id: plan.refOrNull(
          'discountCode',
          ek,
          o.discountCode,
          `${path}.discountCode`,
          'discount code',
        ),
      },
      path,
      { erased: 0, created_utc: createdUtc },
    );
    yield;
  }
}
