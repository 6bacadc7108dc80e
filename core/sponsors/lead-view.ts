// A lead: a visitor a sponsor's staff scanned, as far as the visitor agreed to share. The sponsors
// area's lead list uses this view; lead messages carry it.
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import { leadOrigins } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export { leadOrigins };

/**
 * A lead's copy of the visitor's details: withheld without people:read, erased with the visitor
 * (found by their tickets, as a lead may hold no email). The staff's note is about the visitor, so
 * it goes with them too.
 */
export const leadPersonal = declarePersonal({
  resource: 'lead',
  idField: 'leadId',
  table: 'leads',
  fields: {
    firstName: 'first_name',
    lastName: 'last_name',
    company: 'company',
    jobTitle: 'job_title',
    email: 'email',
    answers: 'answers',
  },
  publicUntilErased: { note: 'note' },
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
});

export const leadSchema = v.object({
  leadId: uuid('The lead id.'),
  shared: v.pipe(
    v.boolean(),
    v.description("True when the visitor's details are included (false once the visitor erased their data)."),
  ),
  firstName: v.nullable(text('Only when shared.')),
  lastName: v.nullable(text('Only when shared.')),
  company: v.nullable(text('Only when shared.')),
  jobTitle: v.nullable(text('Only when shared.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Only when the visitor shares it too.'))),
  origin: v.pipe(
    v.picklist(leadOrigins),
    v.description('booth (scanned there), request (asked through the event app) or session.'),
  ),
  rating: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(3),
    v.description('1 cold, 2 warm, 3 hot.'),
  ),
  answers: v.nullable(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description(
        "The visitor's answers to the sponsor's questions, keyed by question id: {} when there are none or they are not shown (not shared, erased, or no people:read). Only a webhook copy redacted for its receiver carries null.",
      ),
    ),
  ),
  note: v.nullable(text("The booth staff's note.")),
  capturedBy: text('Who scanned first.'),
  capturedUtc: dateTime('When.'),
  attendedSessionId: v.nullable(uuid('The session, for a lead from a session.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const leadItemSchema = v.object({
  sponsor: v.object({ sponsorId: uuid('The sponsor.'), name: text('Its name.') }),
  lead: leadSchema,
});

export type LeadItem = v.InferOutput<typeof leadItemSchema>;

/** Leads with the name of their sponsor. */
export function leadQuery(db: Db) {
  return db
    .selectFrom('leads')
    .innerJoin('sponsors', 'sponsors.id', 'leads.sponsor_id')
    .selectAll('leads')
    .select('sponsors.name as sponsor_name');
}

export type LeadJoinedRow = Awaited<ReturnType<ReturnType<typeof leadQuery>['executeTakeFirstOrThrow']>>;

/** The details go out only as far as the visitor shares them: all of them, and the email only too. */
export function leadItemView(reader: Reader, row: LeadJoinedRow): LeadItem {
  const shared = row.shared === 1;
  const erased = row.erased === 1;
  const lead = applyPersonalData(
    reader,
    {
      leadId: row.id,
      shared: shared && !erased,
      firstName: shared ? row.first_name : null,
      lastName: shared ? row.last_name : null,
      company: shared ? row.company : null,
      jobTitle: shared ? row.job_title : null,
      email: shared && row.email_shared === 1 ? row.email : null,
      origin: row.origin,
      rating: row.rating,
      answers: shared ? (JSON.parse(row.answers ?? '{}') as Record<string, unknown>) : null,
      note: row.note,
      capturedBy: row.captured_by,
      capturedUtc: row.captured_utc,
      attendedSessionId: row.attended_session_id,
      updatedUtc: row.updated_utc,
    },
    leadPersonal,
    erased,
  );
  // The API names answers an object: what is not shown is none, not null.
  lead.answers ??= {};
  return { sponsor: { sponsorId: row.sponsor_id, name: row.sponsor_name }, lead };
}
