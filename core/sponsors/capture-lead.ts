// A booth captures a visitor for a sponsor. The first capture of a visitor by a sponsor is the lead;
// a later one updates it (the unique key on sponsor and attendee keeps it one, however many captures
// arrive together). The visitor's consent is stated at each capture and the latest one holds:
// without it, nothing personal is kept on the lead. lead.captured is sent when a capture makes the
// lead shared (its first capture with consent, or a later one giving it), not for every scan.
import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { checkTicketHolder, ticketHolderFields, ticketHolderId } from '../attendees';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { oneLine, uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { leadFields } from './lead-fields';
import { leadCaptured } from './lead-messages';
import { leadItemSchema, leadItemView, leadOrigins } from './lead-view';
import { findVisitor, type Visitor } from './lead-visitor';
import { loadLead, loadSponsor } from './sponsor-rows';

export const captureLead = defineOperation({
  name: 'captureLead',
  title: 'Capture a lead',
  description:
    "Captures a visitor at a sponsor's booth by attendee id or ticket code: the first capture makes the lead, a later one updates it. Details are kept only with consent, the email only with shareEmail too. Needs leads:write.",
  scope: 'leads:write',
  effect: 'write',
  // Capturing the same visitor again changes the one lead, never makes another.
  repeatable: true,
  idempotent: true,
  ticketCodes: true,
  extension: true,
  module: 'leads',
  etag: true,
  activity: {
    resourceType: 'lead',
    resourceId: (_input, item) => item.lead.leadId,
    summary: (_input, item) => item.sponsor.name,
  },
  problems: ['notFound', 'attendeeNotFound', 'alreadyCancelled'],
  input: v.object({
    eventId: uuid('The event id.'),
    sponsorId: uuid('The sponsor whose booth captures.'),
    ...ticketHolderFields('The visitor'),
    consent: v.pipe(
      v.boolean(),
      v.description(
        'The visitor agreed to share their details with the sponsor. Without it nothing personal is kept, and the lead is never listed.',
      ),
    ),
    shareEmail: v.optional(
      v.pipe(v.boolean(), v.description('The visitor shares their email too. Default false.')),
    ),
    origin: v.optional(
      v.pipe(
        v.picklist(leadOrigins),
        v.description('booth (the default), request (through the event app) or session.'),
      ),
    ),
    attendedSessionId: v.optional(uuid('For origin session: the session, one of the event’s.')),
    rating: v.optional(
      v.pipe(
        leadFields.rating,
        v.description("1 cold, 2 warm, 3 hot. Needed on a visitor's first capture; kept unless sent."),
      ),
    ),
    answers: v.optional(leadFields.answers),
    note: v.optional(leadFields.note),
    capturedBy: v.optional(
      v.pipe(
        v.string(),
        oneLine,
        v.minLength(1),
        v.maxLength(200),
        v.description("Who scanned. Default: the key's name."),
      ),
    ),
  }),
  output: leadItemSchema,
  rules(input, errors) {
    checkTicketHolder(input, errors);
    if (input.consent !== true) {
      if (input.shareEmail === true)
        errors.add('shareEmail', 'The email is shared only by a visitor who agrees to share their details.');
      if (input.answers !== undefined)
        errors.add('answers', 'Answers are kept only for a visitor who agrees to share their details.');
    }
    if (input.origin === 'session' && input.attendedSessionId === undefined)
      errors.add('attendedSessionId', 'A lead from a session names the session.');
    if (input.origin !== 'session' && input.attendedSessionId !== undefined)
      errors.add('attendedSessionId', 'Only a lead from a session (origin session) names one.');
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held as the lead will name it: a removal of the sponsor meanwhile waits for this capture (and
    // counts its lead), or has removed it and the capture answers notFound, not a foreign-key fault.
    const sponsor = await loadSponsor(ctx, event.id, input.sponsorId, 'reference');
    const visitor = await findVisitor(ctx, event.id, await ticketHolderId(ctx, event.id, input));
    const errors = new FieldErrors();
    await checkAttendedSession(ctx, event.id, input.attendedSessionId, errors);
    errors.throwIfAny();

    const shared = input.consent;
    const answers = shared && input.answers !== undefined ? JSON.stringify(input.answers) : undefined;
    const stamp = await changedNow(ctx);
    // What every capture states again: consent, and the details copied as far as it reaches.
    const stated = {
      shared: toFlag(shared),
      email_shared: toFlag(shared && input.shareEmail === true),
      ...copiedDetails(visitor, shared, input.shareEmail === true),
      ...(shared ? (answers === undefined ? {} : { answers }) : { answers: null }),
      ...(input.rating === undefined ? {} : { rating: input.rating }),
      ...(input.note === undefined ? {} : { note: input.note }),
      ...stamp,
    };

    let leadId: string | undefined;
    let becameShared = false;
    if (input.rating !== undefined) {
      const made = await ctx.db
        .insertInto('leads')
        .values({
          id: newId(),
          workspace_id: ctx.actor.workspaceId,
          event_id: event.id,
          sponsor_id: sponsor.id,
          attendee_id: visitor.id,
          ...stated,
          answers: answers ?? null,
          rating: input.rating,
          note: input.note ?? null,
          origin: input.origin ?? 'booth',
          attended_session_id: input.attendedSessionId ?? null,
          captured_by: input.capturedBy ?? ctx.actor.keyName,
          captured_utc: stamp.updated_utc,
          created_utc: stamp.updated_utc,
          erased: 0,
        })
        .onConflict((oc) => oc.columns(['sponsor_id', 'attendee_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      leadId = made?.id;
      becameShared = made !== undefined && shared;
    }
    if (leadId === undefined) {
      // Already this sponsor's lead: the update that turns it shared is the one that says so, so
      // two captures at once send lead.captured once.
      const capture = () =>
        ctx.db
          .updateTable('leads')
          .set(stated)
          .where('sponsor_id', '=', sponsor.id)
          .where('attendee_id', '=', visitor.id);
      const turned = shared
        ? await capture().where('shared', '=', 0).returning('id').executeTakeFirst()
        : undefined;
      becameShared = turned !== undefined;
      leadId = turned?.id ?? (await capture().returning('id').executeTakeFirst())?.id;
    }
    if (leadId === undefined) {
      errors.add('rating', "A visitor's first capture by a sponsor needs a rating.");
      errors.throwIfAny();
    }
    const lead = await loadLead(ctx, event.id, leadId!);
    if (becameShared) await leadCaptured.emit(ctx, { event, lead });
    return leadItemView(ctx.actor, lead);
  },
});

/** The session a lead from a session names must be one of the event's. */
async function checkAttendedSession(
  ctx: Ctx,
  eventId: string,
  sessionId: string | undefined,
  errors: FieldErrors,
): Promise<void> {
  if (sessionId === undefined) return;
  const session = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!session) errors.add('attendedSessionId', `${sessionId} is not a session of this event.`);
}

/** The visitor's details the lead keeps: all of them with consent, the email only when shared too. */
function copiedDetails(visitor: Visitor, shared: boolean, shareEmail: boolean) {
  return {
    first_name: shared ? visitor.first_name : null,
    last_name: shared ? visitor.last_name : null,
    company: shared ? visitor.company : null,
    job_title: shared ? visitor.job_title : null,
    email: shared && shareEmail ? visitor.email : null,
  };
}
