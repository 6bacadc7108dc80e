// The sample's sponsor leads (db/sample/sponsors.ts plans them): each lead is of a visitor holding a
// ticket of the event, taken in a fixed order (the event's active tickets made before the first
// lead, oldest first), or of the attendee who erased their data. A lead not shared keeps nothing of
// the visitor; one shared without the email keeps the rest.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { LeadOrigin } from '../values';
import type { SampleContext } from './context';
import { sampleUtc } from './stamps';

export interface LeadSpec {
  sponsor: string;
  /** all: details and email; details: without the email; none: nothing shared (never listed). */
  share: 'all' | 'details' | 'none';
  /** The attendee who erased their data, instead of the next one in line. */
  erasedVisitor?: boolean;
  origin: LeadOrigin;
  rating: 1 | 2 | 3;
  /** Days from the sample's day, and minutes into that day (UTC). */
  day: number;
  minute: number;
  by: string;
  note?: string;
  answers?: Record<string, string>;
}

type Visitor = Awaited<ReturnType<typeof visitorsOf>>['visitors'][number];

export async function insertSampleLeads(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  leads: LeadSpec[],
): Promise<void> {
  if (leads.length === 0) return;
  const { visitors, erasedVisitorId } = await visitorsOf(db, sample, eventKey, leads);
  for (const [n, lead] of leads.entries()) {
    if (lead.erasedVisitor) await insertErasedLead(db, sample, eventKey, n, lead, erasedVisitorId);
    else await insertLead(db, sample, eventKey, n, lead, visitors[n]!);
  }
}

/** The visitors the leads are of, in turn, and the attendee of the event who erased their data. */
async function visitorsOf(db: Db, sample: SampleContext, eventKey: string, leads: LeadSpec[]) {
  const eventId = sample.id(`event/${eventKey}`);
  const firstCapture = Math.min(...leads.map((l) => l.day * 1440 + l.minute));
  const visitors = await db
    .selectFrom('attendees')
    .select(['id', 'first_name', 'last_name', 'company', 'job_title', 'email'])
    .where('event_id', '=', eventId)
    .where('status', '=', 'active')
    .where('erased', '=', 0)
    .where('created_utc', '<', sampleUtc(sample, 0, firstCapture))
    .orderBy('created_utc')
    .orderBy('id')
    .limit(leads.length)
    .execute();
  const erasedVisitor = await db
    .selectFrom('attendees')
    .select('id')
    .where('event_id', '=', eventId)
    .where('erased', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
  return { visitors, erasedVisitorId: erasedVisitor?.id ?? null };
}

/** What every lead has, whoever it is of. */
async function leadBase(db: Db, sample: SampleContext, eventKey: string, n: number, lead: LeadSpec) {
  const capturedUtc = sampleUtc(sample, lead.day, lead.minute);
  return {
    id: sample.id(`lead/${eventKey}/${n}`),
    workspace_id: sample.workspaceId,
    event_id: sample.id(`event/${eventKey}`),
    sponsor_id: sample.id(`sponsor/${eventKey}/${lead.sponsor}`),
    origin: lead.origin,
    rating: lead.rating,
    note: lead.note ?? null,
    captured_by: lead.by,
    captured_utc: capturedUtc,
    attended_session_id: null,
    created_utc: capturedUtc,
    change_seq: await nextChangeSeq(db),
  };
}

async function insertLead(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  n: number,
  lead: LeadSpec,
  visitor: Visitor,
): Promise<void> {
  const base = await leadBase(db, sample, eventKey, n, lead);
  const shared = lead.share !== 'none';
  await db
    .insertInto('leads')
    .values({
      ...base,
      attendee_id: visitor.id,
      shared: shared ? 1 : 0,
      email_shared: lead.share === 'all' ? 1 : 0,
      first_name: shared ? visitor.first_name : null,
      last_name: shared ? visitor.last_name : null,
      company: shared ? visitor.company : null,
      job_title: shared ? visitor.job_title : null,
      email: lead.share === 'all' ? visitor.email : null,
      answers: shared ? JSON.stringify(lead.answers ?? {}) : null,
      erased: 0,
      updated_utc: base.captured_utc,
    })
    .execute();
}

/** Shared, then erased with the visitor: nothing personal is left, the note included. */
async function insertErasedLead(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  n: number,
  lead: LeadSpec,
  attendeeId: string | null,
): Promise<void> {
  await db
    .insertInto('leads')
    .values({
      ...(await leadBase(db, sample, eventKey, n, lead)),
      attendee_id: attendeeId,
      shared: 1,
      email_shared: 1,
      first_name: null,
      last_name: null,
      company: null,
      job_title: null,
      email: null,
      answers: null,
      note: null,
      erased: 1,
      updated_utc: sampleUtc(sample, -1, 9 * 60),
    })
    .execute();
}
