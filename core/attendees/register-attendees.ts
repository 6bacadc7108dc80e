import * as v from 'valibot';
import { insertRows } from '../../db/prepared';
import type { AttendeeRow, EventRow, TicketTypeRow } from '../../db/schema';
import { reserveChangeSeqs } from '../../db/sequence';
import { loadQuestions } from '../events/load-questions';
import { checkAnswer, type QuestionView } from '../events/questions';
import { newOrderReference } from '../orders/order-reference';
import type { Ctx } from '../platform/context';
import { documentedAsRequired } from '../platform/docs/json-schema';
import { FieldErrors } from '../platform/field-errors';
import { isUuid, newId } from '../platform/ids';
import { ownRecord } from '../platform/own-record';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { takePlaces } from '../sales/places';
import { attendeeRegistered } from './attendee-messages';
import { type AttendeeJoinedRow, attendeeSchema, attendeeView } from './attendee-view';

export const maxAttendeesPerRequest = 50;
const limits = { firstName: 100, lastName: 100, email: 254, company: 200, jobTitle: 200 } as const;
const emailCheck = v.pipe(v.string(), v.email());

const optionalText = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));
/** Required for the client; a missing one is refused as `invalid` naming the attendee and field. */
const requiredText = (description: string) => documentedAsRequired(optionalText(description));

export const newAttendeeSchema = v.object({
  ticketTypeId: requiredText('The ticket type id.'),
  firstName: requiredText('At most 100 characters.'),
  lastName: requiredText('At most 100 characters.'),
  email: requiredText('Where the ticket goes.'),
  company: optionalText('At most 200 characters.'),
  jobTitle: optionalText('At most 200 characters.'),
  answers: v.optional(
    v.pipe(ownRecord(v.string(), v.unknown()), v.description('Keyed by question id; none is required.')),
  ),
});

type NewAttendee = v.InferOutput<typeof newAttendeeSchema>;
type DetailError = {
  attendee: number;
  field: string;
  code: 'required' | 'tooLong' | 'notEmail' | 'notOption';
};

export const registerAttendees = defineOperation({
  name: 'registerAttendees',
  title: 'Register attendees',
  description:
    'Issues free tickets to 1 to 50 people in one order; hidden and code-only types may be used. All or nothing: refused with soldOut, invalid or registrationRefused. Needs attendees:write.',
  scope: 'attendees:write',
  effect: 'write',
  activity: {
    resourceType: 'order',
    resourceId: (_input, order) => order.orderId,
    summary: (_input, order) => `${order.attendees.length} attendee(s), ${order.reference}`,
  },
  problems: ['invalid', 'soldOut', 'unknownTicket', 'empty', 'tooMany', 'registrationRefused'],
  idempotent: true,
  input: v.object({
    eventId: uuid('The event id.'),
    // Required for the client; none sent is refused as `empty`, more than 50 as `tooMany`.
    attendees: documentedAsRequired(
      v.optional(v.pipe(v.array(newAttendeeSchema), v.description('1 to 50 people.'))),
    ),
    language: optionalText("Default: the event's first."),
    buyerName: optionalText("Default: the first attendee's."),
    buyerEmail: optionalText("Default: the first attendee's."),
    buyerCompany: optionalText('Optional.'),
  }),
  output: v.object({
    orderId: uuid('The order made.'),
    reference: v.pipe(v.string(), v.length(6), v.description('Six-character order reference.')),
    attendees: v.array(attendeeSchema),
  }),
  async handler(ctx, input) {
    const people = input.attendees ?? [];
    if (people.length === 0) throw problem('empty', 'Send at least one attendee.');
    if (people.length > maxAttendeesPerRequest) {
      throw problem(
        'tooMany',
        `At most ${maxAttendeesPerRequest} attendees can be registered in one request; ${people.length} were sent.`,
      );
    }
    const event = await loadEvent(ctx, input.eventId);
    const languages = JSON.parse(event.languages) as string[];
    const requestErrors = new FieldErrors();
    if (input.language !== undefined && !languages.includes(input.language)) {
      requestErrors.add('language', `Use one of the event's languages: ${languages.join(', ')}.`);
    }
    if (input.buyerEmail !== undefined && !v.is(emailCheck, input.buyerEmail))
      requestErrors.add('buyerEmail', 'Not an email address.');
    requestErrors.throwIfAny();

    const types = new Map(
      (await ctx.db.selectFrom('ticket_types').selectAll().where('event_id', '=', event.id).execute()).map(
        (t) => [t.id, t],
      ),
    );
    for (const person of people) {
      if (person.ticketTypeId !== undefined && !types.has(person.ticketTypeId)) {
        // ticketTypeId names it only when it is an id at all: the problem's member is a uuid.
        throw problem(
          'unknownTicket',
          `${person.ticketTypeId} is not a ticket type of this event.`,
          isUuid(person.ticketTypeId) ? { ticketTypeId: person.ticketTypeId } : {},
        );
      }
    }
    const questions = await loadQuestions(ctx, event.id);
    const errors = people.flatMap((person, i) => detailErrors(person, i, questions));
    if (errors.length > 0) {
      const summary = errors.map((e) => `attendee ${e.attendee} ${e.field}: ${e.code}`).join('; ');
      throw problem('invalid', `Some attendee details are wrong (${summary}).`, { errors });
    }
    refuseWhatCannotBeIssued(ctx, event, people, types);

    const counts = new Map<string, number>();
    for (const person of people)
      counts.set(person.ticketTypeId!, (counts.get(person.ticketTypeId!) ?? 0) + 1);
    // In the order of their ids, so concurrent registrations take their rows' locks in one order.
    for (const [ticketTypeId, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!(await takePlaces(ctx, 'ticket_types', ticketTypeId, n))) {
        const name = types.get(ticketTypeId)?.name;
        throw problem('soldOut', `Not enough places left for ${n} × ${name}.`, { ticketTypeId });
      }
      for (const addOnId of JSON.parse(types.get(ticketTypeId)!.included_add_on_ids) as string[]) {
        if (!(await takePlaces(ctx, 'add_ons', addOnId, n))) {
          throw problem('registrationRefused', 'An add-on included with this ticket type is sold out.', {
            reason: 'addOnSoldOut',
            ticketTypeId,
          });
        }
      }
    }

    const now = ctx.clock.now().toISOString();
    const first = people[0]!;
    const orderId = newId();
    const reference = await newOrderReference(ctx, event.id);
    // One block of change positions: the order's, then each attendee's in the order sent.
    const firstSeq = await reserveChangeSeqs(ctx.db, people.length + 1);
    await ctx.db
      .insertInto('orders')
      .values({
        id: orderId,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        reference,
        status: 'free',
        buyer_name: input.buyerName ?? `${first.firstName} ${first.lastName}`,
        buyer_email: (input.buyerEmail ?? first.email!).toLowerCase(),
        buyer_company: input.buyerCompany ?? (input.buyerName === undefined ? (first.company ?? null) : null),
        language: input.language ?? languages[0]!,
        total_minor: 0,
        vat_minor: 0,
        currency: event.currency,
        payment_provider: null,
        paid_utc: null,
        source: 'workspace',
        discount_code_id: null,
        erased: 0,
        created_utc: now,
        updated_utc: now,
        change_seq: firstSeq,
      })
      .execute();

    const rows = people.map(
      (person, i): AttendeeRow => ({
        id: newId(),
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        order_id: orderId,
        ticket_type_id: person.ticketTypeId!,
        first_name: person.firstName!.trim(),
        last_name: person.lastName!.trim(),
        email: person.email!.trim().toLowerCase(),
        company: person.company?.trim() || null,
        job_title: person.jobTitle?.trim() || null,
        language: input.language ?? languages[0]!,
        answers:
          person.answers && Object.keys(person.answers).length > 0 ? JSON.stringify(person.answers) : null,
        status: 'active',
        checked_in_utc: null,
        cancelled_utc: null,
        erased: 0,
        created_utc: now,
        updated_utc: now,
        change_seq: firstSeq + 1 + i,
      }),
    );
    // All of them in one statement (at most 50 rows of 19 values).
    await insertRows(ctx.db, 'attendees', rows);
    const addOns = rows.flatMap((row) =>
      (JSON.parse(types.get(row.ticket_type_id)!.included_add_on_ids) as string[]).map((addOnId) => ({
        attendee_id: row.id,
        add_on_id: addOnId,
        quantity: 1,
      })),
    );
    if (addOns.length > 0) await ctx.db.insertInto('attendee_add_ons').values(addOns).execute();

    // The rows as written, with the order and ticket-type facts their view joins in.
    const joined: AttendeeJoinedRow[] = rows.map((row) => ({
      ...row,
      order_reference: reference,
      order_status: 'free',
      ticket_type_name: types.get(row.ticket_type_id)!.name,
    }));
    await attendeeRegistered.emitEach(
      ctx,
      joined.map((attendee) => ({ event, attendee })),
    );
    return { orderId, reference, attendees: joined.map((row) => attendeeView(ctx.actor, row)) };
  },
});

function detailErrors(person: NewAttendee, index: number, questions: QuestionView[]): DetailError[] {
  const errors: DetailError[] = [];
  const add = (field: string, code: DetailError['code']) => errors.push({ attendee: index, field, code });
  if (person.ticketTypeId === undefined) add('ticketTypeId', 'required');
  for (const field of ['firstName', 'lastName', 'email', 'company', 'jobTitle'] as const) {
    const value = person[field]?.trim();
    const required = field === 'firstName' || field === 'lastName' || field === 'email';
    if (!value) {
      if (required) add(field, 'required');
    } else if (value.length > limits[field]) add(field, 'tooLong');
    else if (field === 'email' && !v.is(emailCheck, value)) add(field, 'notEmail');
  }
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  for (const [questionId, answer] of Object.entries(person.answers ?? {})) {
    const question = byId.get(questionId);
    const asked =
      question &&
      (question.ticketTypeIds.length === 0 || question.ticketTypeIds.includes(person.ticketTypeId ?? ''));
    if (!question || !asked) add(`answers.${questionId}`, 'notOption');
    else if (answer !== null) {
      const code = checkAnswer(question, answer);
      if (code) add(`answers.${questionId}`, code);
    }
  }
  return errors;
}

/** Refusals other than capacity: too many of one type for one order, or an event already over. */
function refuseWhatCannotBeIssued(
  ctx: Ctx,
  event: EventRow,
  people: NewAttendee[],
  types: Map<string, TicketTypeRow>,
): void {
  if (event.ends_utc < ctx.clock.now().toISOString()) {
    throw problem('registrationRefused', 'The event is over; no more tickets can be issued.', {
      reason: 'eventEnded',
    });
  }
  const counts = new Map<string, number>();
  for (const person of people) counts.set(person.ticketTypeId!, (counts.get(person.ticketTypeId!) ?? 0) + 1);
  for (const [ticketTypeId, n] of counts) {
    const type = types.get(ticketTypeId)!;
    if (n > type.max_per_order) {
      throw problem('registrationRefused', `At most ${type.max_per_order} × ${type.name} fit in one order.`, {
        reason: 'maxPerOrder',
        ticketTypeId,
      });
    }
  }
}
