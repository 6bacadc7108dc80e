// What a registration must be before anything is taken or written: 1 to 50 people, the event's
// language, each person's ticket type of this event, their details and answers (every problem
// named at once, as `invalid` with `errors`), and what cannot be issued at all (an event that
// is over, more of one type than fit in one order).
import * as v from 'valibot';
import { addOnColumns, ticketTypeColumns } from '../../db/columns';
import { referencedRow } from '../../db/dialect';
import type { Placeholders } from '../../db/prepared';
import { prepareTogether } from '../../db/reads-together';
import type { AddOnRow, EventRow } from '../../db/schema';
import {
  answerLineFaults,
  checkAnswer,
  type QuestionView,
  questionOrder,
  questionsOf,
  questionView,
} from '../events';
import type { Ctx } from '../platform/context';
import { documentedAsRequired } from '../platform/docs/json-schema';
import { FieldErrors } from '../platform/field-errors';
import { isUuid } from '../platform/ids';
import { ownRecord } from '../platform/own-record';
import { loadEvent } from '../platform/pipeline/load-event';
import { problem } from '../platform/problems';
import { oneLine } from '../platform/schemas';
import { lessHeldPlace } from './held-place';
import { type RegistrationType, registrationType, type WantedPlaces, wantedPlaces } from './wanted-places';

export const maxAttendeesPerRequest = 50;
const limits = { firstName: 100, lastName: 100, email: 254, company: 200, jobTitle: 200 } as const;
const emailCheck = v.pipe(v.string(), v.email());

export const optionalText = (description: string) =>
  v.optional(v.pipe(v.string(), oneLine, v.description(description)));
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
    v.pipe(
      ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
      v.description('Keyed by question id; none is required.'),
    ),
  ),
  addOns: v.optional(
    v.pipe(
      v.array(
        v.object({
          addOnId: v.pipe(v.string(), oneLine, v.description('An add-on of this event.')),
          quantity: v.optional(
            v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description('Default 1.')),
          ),
        }),
      ),
      v.maxLength(50),
      v.description(
        'Tessera extension: add-ons this person buys with the ticket, each once, none the ticket type already includes; priced ones only in an order that is paid (createOrder). Sold out: registrationRefused, reason addOnSoldOut.',
      ),
    ),
  ),
});

export type NewAttendee = v.InferOutput<typeof newAttendeeSchema>;
type DetailError = {
  attendee: number;
  field: string;
  code: 'required' | 'tooLong' | 'notEmail' | 'notOption';
};

/** What registerAttendees takes, as its input schema gives it. */
export interface RegistrationInput {
  eventId: string;
  attendees?: NewAttendee[];
  language?: string;
  buyerEmail?: string;
}

/** A registration that may be issued: its event, languages, the event's ticket types and the people. */
export interface CheckedRegistration {
  event: EventRow;
  languages: string[];
  types: Map<string, RegistrationType>;
  /** The event's add-ons, by id. */
  addOns: Map<string, AddOnRow>;
  people: NewAttendee[];
  /** The places the people want, counted once for the refusals and the places' updates. */
  wanted: WantedPlaces;
}

export async function checkRegistration(ctx: Ctx, input: RegistrationInput): Promise<CheckedRegistration> {
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

  const read = await registrationReads.rows(ctx.db, { eventId: event.id });
  const types = new Map(read.types.map((t) => [t.id, registrationType(t)]));
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
  const addOns = new Map(read.addOns.map((a) => [a.id, a]));
  checkChosenAddOns(people, types, addOns);
  const questions = read.questions.map(questionView);
  const byId = new Map(questions.map((q) => [q.questionId, q]));
  const lineErrors = new FieldErrors();
  for (const [i, person] of people.entries())
    answerLineFaults(byId, person.answers ?? {}, `attendees.${i}.answers.`, lineErrors);
  lineErrors.throwIfAny();
  const errors = people.flatMap((person, i) =>
    detailErrors(person, i, questions, ctx.actor.publicSignUp === true),
  );
  if (errors.length > 0) {
    const summary = errors.map((e) => `attendee ${e.attendee} ${e.field}: ${e.code}`).join('; ');
    throw problem('invalid', `Some attendee details are wrong (${summary}).`, { errors });
  }
  const wanted = lessHeldPlace(ctx, people, wantedPlaces(people, types));
  refuseWhatCannotBeIssued(ctx, event, wanted, types);
  return { event, languages, types, addOns, people, wanted };
}

/**
 * The event's ticket types, add-ons and questions in one read (one round trip on PostgreSQL), built
 * once and kept prepared. The types and add-ons are held as the tickets' foreign keys hold them (FOR
 * KEY SHARE): none is removed before the places are taken, last of all (registration-places.ts).
 */
const registrationReads = prepareTogether((db, p: Placeholders<{ eventId: string }>) => ({
  types: {
    query: referencedRow(
      db,
      db.selectFrom('ticket_types').select(ticketTypeColumns).where('event_id', '=', p.eventId),
    ),
  },
  addOns: {
    query: referencedRow(db, db.selectFrom('add_ons').select(addOnColumns).where('event_id', '=', p.eventId)),
  },
  questions: { query: questionsOf(db, p.eventId), order: questionOrder },
}));

/** Each person's chosen add-ons: of this event, each once, none their ticket type already includes. */
function checkChosenAddOns(
  people: NewAttendee[],
  types: Map<string, RegistrationType>,
  addOns: Map<string, AddOnRow>,
): void {
  const errors = new FieldErrors();
  people.forEach((person, i) => {
    const included = types.get(person.ticketTypeId ?? '')?.includedAddOnIds ?? [];
    const seen = new Set<string>();
    (person.addOns ?? []).forEach(({ addOnId }, n) => {
      const field = `attendees.${i}.addOns.${n}.addOnId`;
      if (!addOns.has(addOnId)) errors.add(field, 'Not an add-on of this event.');
      else if (seen.has(addOnId)) errors.add(field, 'This add-on is listed twice for this person.');
      else if (included.includes(addOnId)) errors.add(field, "The person's ticket type already includes it.");
      seen.add(addOnId);
    });
  });
  errors.throwIfAny();
}

/** A free registration takes no priced add-on: it would need a payment (createOrder takes it). */
export function refusePricedAddOns({ people, addOns }: CheckedRegistration): void {
  for (const person of people)
    for (const { addOnId } of person.addOns ?? []) {
      const addOn = addOns.get(addOnId)!;
      if (addOn.price_minor > 0)
        throw problem(
          'registrationRefused',
          `${addOn.name} has a price: a free registration cannot include it; take an order (createOrder).`,
          { reason: 'addOnNotFree', addOnId },
        );
    }
}

function detailErrors(
  person: NewAttendee,
  index: number,
  questions: QuestionView[],
  onForm: boolean,
): DetailError[] {
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
  // A question marked required is required on the public form only (never through the API).
  if (onForm) {
    for (const q of questions) {
      const asked = q.ticketTypeIds.length === 0 || q.ticketTypeIds.includes(person.ticketTypeId ?? '');
      const answer = person.answers?.[q.questionId];
      if (
        q.required &&
        asked &&
        (answer === undefined || answer === null || answer === '' || answer === false)
      )
        add(`answers.${q.questionId}`, 'required');
    }
  }
  return errors;
}

/** Refusals other than capacity: too many of one type for one order, or an event already over. */
function refuseWhatCannotBeIssued(
  ctx: Ctx,
  event: EventRow,
  wanted: WantedPlaces,
  types: Map<string, RegistrationType>,
): void {
  if (event.ends_utc < ctx.clock.now().toISOString()) {
    throw problem('registrationRefused', 'The event is over; no more tickets can be issued.', {
      reason: 'eventEnded',
    });
  }
  for (const [ticketTypeId, n] of wanted.byType) {
    const type = types.get(ticketTypeId)!;
    if (type.retired_utc !== null) {
      throw problem('registrationRefused', `${type.name} is retired; no more tickets of it are issued.`, {
        reason: 'retired',
        ticketTypeId,
      });
    }
    if (n > type.max_per_order) {
      throw problem('registrationRefused', `At most ${type.max_per_order} × ${type.name} fit in one order.`, {
        reason: 'maxPerOrder',
        ticketTypeId,
      });
    }
  }
}
