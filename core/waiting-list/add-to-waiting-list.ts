// Someone joins a ticket type's waiting list: by the public page when the type is sold out (with
// their consent to be e-mailed about a place), or added by the organiser. Joining again with the
// same address, while still in line or offered a place, answers the entry already there. Should
// places be free and the entry first in line, it is offered one at once (offer-places.ts).
import * as v from 'valibot';
import type { TicketTypeRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { oneLine, uuid } from '../platform/schemas';
import { placesLeft } from '../sales';
import { waitingEntrySchema } from './entry-view';
import { entryAnswer } from './load-entry';
import { offerWaitingPlaces } from './offer-places';

const name = (description: string) =>
  v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(100), v.description(description));

export const addToWaitingList = defineOperation({
  name: 'addToWaitingList',
  title: 'Add to a waiting list',
  description:
    'Puts a person in line for a ticket type whose waiting list is on; the same address again answers their entry. A place that comes free is offered to the next in line by e-mail and held. Needs attendees:write.',
  scope: 'attendees:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  activity: {
    resourceType: 'waitingListEntry',
    resourceId: (_input, entry) => entry.waitingListEntryId,
  },
  problems: ['unknownTicket', 'registrationRefused'],
  input: v.object({
    eventId: uuid('The event id.'),
    ticketTypeId: uuid('The ticket type to wait for (its waitingList on).'),
    firstName: name('At most 100 characters.'),
    lastName: name('At most 100 characters.'),
    email: v.pipe(v.string(), v.email(), v.maxLength(254), v.description('Where the offer goes.')),
    language: v.optional(
      v.pipe(v.string(), oneLine, v.description("One of the event's languages; default its first.")),
    ),
    consent: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'They agreed to be e-mailed about a place (the public page requires it); recorded with its time.',
        ),
      ),
    ),
  }),
  output: waitingEntrySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const type = await ctx.db
      .selectFrom('ticket_types')
      .selectAll()
      .where('id', '=', input.ticketTypeId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!type)
      throw problem('unknownTicket', `${input.ticketTypeId} is not a ticket type of this event.`, {
        ticketTypeId: input.ticketTypeId,
      });
    const languages = JSON.parse(event.languages) as string[];
    refuseJoining(ctx, type, input, languages);
    const email = input.email.trim().toLowerCase();
    const joined = ctx.clock.now();
    const now = joined.toISOString();
    const seq = await nextChangeSeq(ctx.db);
    const entryId = newId();
    const inserted = await ctx.db
      .insertInto('waiting_list_entries')
      .values({
        id: entryId,
        workspace_id: event.workspace_id,
        event_id: event.id,
        ticket_type_id: type.id,
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        email,
        language: input.language ?? languages[0]!,
        consent_utc: input.consent ? now : null,
        // Join order: when they joined, then the time-ordered id (change positions count per
        // transaction on PostgreSQL, so they cannot order writes of several).
        position: joined.getTime(),
        status: 'waiting',
        offer_token_hash: null,
        offered_utc: null,
        offer_expires_utc: null,
        order_id: null,
        erased: 0,
        created_utc: now,
        updated_utc: now,
        change_seq: seq,
      })
      // Already in line (or offered a place) with this address: their entry is the answer.
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
      await offerWaitingPlaces(ctx, type.id);
      return entryAnswer(ctx, event.id, entryId);
    }
    const there = await ctx.db
      .selectFrom('waiting_list_entries')
      .select('id')
      .where('ticket_type_id', '=', type.id)
      .where('email', '=', email)
      .where('status', 'in', ['waiting', 'offered'])
      .executeTakeFirstOrThrow();
    return entryAnswer(ctx, event.id, there.id);
  },
});

/** A type without a list, or (on the public page) one with places left or no consent given, takes no one. */
function refuseJoining(
  ctx: Ctx,
  type: TicketTypeRow,
  input: { language?: string; consent?: boolean },
  languages: string[],
): void {
  const errors = new FieldErrors();
  if (input.language !== undefined && !languages.includes(input.language))
    errors.add('language', `Use one of the event's languages: ${languages.join(', ')}.`);
  if (ctx.actor.publicSignUp && input.consent !== true)
    errors.add('consent', 'Agree to be e-mailed when a place comes free.');
  errors.throwIfAny();
  if (type.waiting_list !== 1)
    throw problem('registrationRefused', `${type.name} has no waiting list.`, {
      reason: 'waitingListOff',
      ticketTypeId: type.id,
    });
  if (ctx.actor.publicSignUp && placesLeft(type.capacity, type.taken) !== 0)
    throw problem('registrationRefused', `${type.name} has places left: register instead.`, {
      reason: 'notSoldOut',
      ticketTypeId: type.id,
    });
}
