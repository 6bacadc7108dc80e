// A lead: a visitor a sponsor's staff scanned, as far as the visitor agreed to share. The sponsors
// area's lead list uses this view; lead messages carry it.
import * as v from 'valibot';
import { declarePersonalFields } from '../platform/personal-data';
import { dateTime, text, uuid } from '../platform/schemas';

export const leadOrigins = ['booth', 'request', 'session'] as const;

export const leadPersonal = declarePersonalFields({
  resource: 'lead',
  idField: 'leadId',
  fields: {
    firstName: 'first_name',
    lastName: 'last_name',
    company: 'company',
    jobTitle: 'job_title',
    email: 'email',
    answers: 'answers',
  },
});

export const leadSchema = v.object({
  leadId: uuid('The lead id.'),
  shared: v.pipe(v.boolean(), v.description("True when the visitor's details are included.")),
  firstName: v.nullable(text('Only when shared.')),
  lastName: v.nullable(text('Only when shared.')),
  company: v.nullable(text('Only when shared.')),
  jobTitle: v.nullable(text('Only when shared.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Only when the visitor shares it too.'))),
  origin: v.picklist(leadOrigins),
  rating: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(3),
    v.description('1 cold, 2 warm, 3 hot.'),
  ),
  answers: v.record(v.string(), v.unknown()),
  note: v.nullable(text("The booth staff's note.")),
  capturedBy: text('Who scanned first.'),
  capturedUtc: dateTime('When.'),
  attendedSessionId: v.nullable(uuid('The session, for a lead from a session.')),
  updatedUtc: dateTime('Last change.'),
});

export const leadItemSchema = v.object({
  sponsor: v.object({ sponsorId: uuid('The sponsor.'), name: text('Its name.') }),
  lead: leadSchema,
});
