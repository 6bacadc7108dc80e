// The file format of an event's sales (ticket types, add-ons, discount codes, questions, orders
// with their attendees): what the import reads (read-file.ts, format.ts), apart from how it plans
// rows (./sales.ts, ./orders.ts), which both take it.
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
