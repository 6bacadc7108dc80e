// Resources that reach a receiver only inside messages (they come in by import, not through an API
// list): feedback, certificates, published content, stays, travel and expense claims. Designed in the
// attendee family's style: ids, the event, venue-free UTC times, and the personal-data rule where a
// person is named.
import * as v from 'valibot';
import { declarePersonalFields } from '../platform/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

const money = (description: string) => v.pipe(v.number(), v.description(description));
const person = {
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
};

/** One answer to a survey or one rating of a session; never who gave it. */
export const feedbackSchema = v.object({
  feedbackId: uuid('The feedback id.'),
  surveyId: v.nullable(uuid('The survey answered, for survey answers.')),
  sessionId: v.nullable(uuid('The session rated, for a session rating.')),
  rating: v.nullable(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5), v.description('Stars, 1 to 5.')),
  ),
  answeredUtc: dateTime('When it was given.'),
});

export const certificatePersonal = declarePersonalFields({
  resource: 'certificate',
  idField: 'certificateId',
  fields: { firstName: 'first_name', lastName: 'last_name' },
});

export const certificateSchema = v.object({
  certificateId: uuid('The certificate id.'),
  attendeeId: uuid('The attendee it was issued to.'),
  kind: v.picklist(['attendance', 'speaker', 'crew']),
  ...person,
  issuedUtc: dateTime('When it was issued.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const contentSchema = v.object({
  contentId: uuid('The content id.'),
  kind: v.picklist(['slides', 'recording', 'article', 'photos']),
  title: text('Its title.'),
  sessionId: v.nullable(uuid('The session it belongs to.')),
  url: v.pipe(v.string(), v.url(), v.description('Where it is published.')),
  publishedUtc: dateTime('When it was published.'),
});

export const stayStatuses = ['requested', 'assigned', 'cancelled'] as const;

export const stayPersonal = declarePersonalFields({
  resource: 'stay',
  idField: 'stayId',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
});

/** A hotel stay arranged for an attendee, a speaker or crew. */
export const staySchema = v.object({
  stayId: uuid('The stay id.'),
  attendeeId: v.nullable(uuid('The attendee staying, when they hold a ticket.')),
  ...person,
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  status: v.picklist(stayStatuses),
  hotel: v.nullable(text('The hotel, once assigned.')),
  room: v.nullable(text('The room, once assigned.')),
  checkInDate: v.pipe(v.string(), v.isoDate(), v.description('First night.')),
  checkOutDate: v.pipe(v.string(), v.isoDate(), v.description('Day of leaving.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const travelPersonal = declarePersonalFields({
  resource: 'travel',
  idField: 'travelId',
  fields: { firstName: 'first_name', lastName: 'last_name', reference: 'reference' },
});

/** A journey booked for a speaker or crew member. */
export const travelSchema = v.object({
  travelId: uuid('The travel id.'),
  ...person,
  mode: v.picklist(['flight', 'train', 'bus', 'car', 'other']),
  from: text('Where it starts.'),
  to: text('Where it ends.'),
  departsUtc: dateTime('Departure.'),
  arrivesUtc: dateTime('Arrival.'),
  reference: v.nullable(text('Booking reference. Personal data.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const claimStatuses = ['submitted', 'approved', 'paid', 'rejected'] as const;

export const claimPersonal = declarePersonalFields({
  resource: 'expense claim',
  idField: 'claimId',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
});

/** An expense claim of a speaker or crew member. */
export const claimSchema = v.object({
  claimId: uuid('The claim id.'),
  ...person,
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  category: text('travel, hotel, meals, ...'),
  amount: money("Amount claimed, in the currency's own decimals."),
  currency: text('ISO 4217 currency.'),
  status: v.picklist(claimStatuses),
  submittedUtc: dateTime('When it was submitted.'),
  approvedUtc: v.nullable(dateTime('When it was approved.')),
  paidUtc: v.nullable(dateTime('When it was paid.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});
