// Resources that reach a receiver only inside messages (they come in by import, not through an API
// list): feedback, certificates, published content, stays, travel and expense claims. Designed in the
// attendee family's style: ids, the event, venue-free UTC times, and the personal-data rule where a
// person is named. The views render a row as its message carries it (unredacted: the dispatcher
// redacts per subscriber).
import * as v from 'valibot';
import type { CertificateRow, ContentRow, ExpenseClaimRow, StayRow, TravelRow } from '../../db/schema';
import {
  certificateKinds,
  claimStatuses,
  contentKinds,
  stayStatuses,
  travelModes,
  travelStatuses,
} from '../../db/values';
import { toMajor } from '../platform/money';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export { claimStatuses, stayStatuses, travelStatuses };

const money = (description: string) => v.pipe(v.number(), v.description(description));
const person = {
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
};
/** Who a stay, journey or claim is for, when they are on the programme or the crew. */
const speakerOrCrew = {
  speakerId: v.nullable(uuid('The speaker it is for, when it is for one.')),
  crewMemberId: v.nullable(uuid('The crew member it is for, when it is for one.')),
};
/** Erasing the linked speaker or crew member erases the row too. */
const linkedPeople = { speakers: 'speaker_id', crew_members: 'crew_member_id' } as const;

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

export const certificatePersonal = declarePersonal({
  resource: 'certificate',
  idField: 'certificateId',
  table: 'certificates',
  fields: { firstName: 'first_name', lastName: 'last_name' },
  storedOnly: ['email'],
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
});

export const certificateSchema = v.object({
  certificateId: uuid('The certificate id.'),
  attendeeId: uuid('The attendee it was issued to.'),
  kind: v.picklist(certificateKinds),
  ...person,
  issuedUtc: dateTime('When it was issued.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export function certificateView(row: CertificateRow): v.InferOutput<typeof certificateSchema> {
  return applyPersonalData(
    'unredacted',
    {
      certificateId: row.id,
      attendeeId: row.attendee_id,
      kind: row.kind,
      firstName: row.first_name,
      lastName: row.last_name,
      issuedUtc: row.issued_utc,
    },
    certificatePersonal,
    row.erased === 1,
  );
}

export const contentSchema = v.object({
  contentId: uuid('The content id.'),
  kind: v.picklist(contentKinds),
  title: text('Its title.'),
  sessionId: v.nullable(uuid('The session it belongs to.')),
  url: v.pipe(v.string(), v.url(), v.description('Where it is published.')),
  publishedUtc: dateTime('When it was published.'),
});

export function contentView(row: ContentRow): v.InferOutput<typeof contentSchema> {
  return {
    contentId: row.id,
    kind: row.kind,
    title: row.title,
    sessionId: row.session_id,
    url: row.url,
    publishedUtc: row.published_utc,
  };
}

export const stayPersonal = declarePersonal({
  resource: 'stay',
  idField: 'stayId',
  table: 'stays',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
  linkColumns: linkedPeople,
});

/** A hotel stay arranged for an attendee, a speaker or crew. */
export const staySchema = v.object({
  stayId: uuid('The stay id.'),
  attendeeId: v.nullable(uuid('The attendee staying, when they hold a ticket.')),
  ...speakerOrCrew,
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

/** A stay as a caller reads it, or unredacted as its messages carry it. */
export function stayView(row: StayRow, reader: Reader = 'unredacted'): v.InferOutput<typeof staySchema> {
  return applyPersonalData(
    reader,
    {
      stayId: row.id,
      attendeeId: row.attendee_id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      status: row.status,
      hotel: row.hotel,
      room: row.room,
      checkInDate: row.check_in_date,
      checkOutDate: row.check_out_date,
      updatedUtc: row.updated_utc,
    },
    stayPersonal,
    row.erased === 1,
  );
}

export const travelPersonal = declarePersonal({
  resource: 'travel',
  idField: 'travelId',
  table: 'travel',
  countedAs: 'journey',
  fields: { firstName: 'first_name', lastName: 'last_name', reference: 'reference' },
  storedOnly: ['email'],
  emailColumn: 'email',
  linkColumns: linkedPeople,
});

/** A journey booked for a speaker or crew member. */
export const travelSchema = v.object({
  travelId: uuid('The travel id.'),
  ...speakerOrCrew,
  ...person,
  status: v.pipe(
    v.picklist(travelStatuses),
    v.description('booked, or cancelled (kept, so receivers learn it).'),
  ),
  mode: v.picklist(travelModes),
  from: text('Where it starts.'),
  to: text('Where it ends.'),
  departsUtc: dateTime('Departure.'),
  arrivesUtc: dateTime('Arrival.'),
  reference: v.nullable(text('Booking reference. Personal data.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

/** A journey as a caller reads it, or unredacted as its messages carry it. */
export function travelView(
  row: TravelRow,
  reader: Reader = 'unredacted',
): v.InferOutput<typeof travelSchema> {
  return applyPersonalData(
    reader,
    {
      travelId: row.id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      status: row.status,
      mode: row.mode,
      from: row.from_place,
      to: row.to_place,
      departsUtc: row.departs_utc,
      arrivesUtc: row.arrives_utc,
      reference: row.reference,
      updatedUtc: row.updated_utc,
    },
    travelPersonal,
    row.erased === 1,
  );
}

export const claimPersonal = declarePersonal({
  resource: 'expense claim',
  idField: 'claimId',
  table: 'expense_claims',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
  emailColumn: 'email',
  linkColumns: linkedPeople,
});

/** An expense claim of a speaker or crew member. */
export const claimSchema = v.object({
  claimId: uuid('The claim id.'),
  ...speakerOrCrew,
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

/** A claim as a caller reads it, or unredacted as its messages carry it. */
export function claimView(
  row: ExpenseClaimRow,
  reader: Reader = 'unredacted',
): v.InferOutput<typeof claimSchema> {
  return applyPersonalData(
    reader,
    {
      claimId: row.id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      category: row.category,
      amount: toMajor(row.amount_minor, row.currency),
      currency: row.currency,
      status: row.status,
      submittedUtc: row.submitted_utc,
      approvedUtc: row.approved_utc,
      paidUtc: row.paid_utc,
    },
    claimPersonal,
    row.erased === 1,
  );
}
