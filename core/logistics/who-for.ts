// Who a stay, a journey or an expense claim is for: a speaker, a crew member or an attendee of the
// event (one link at most), or someone named only by what is given. Names and the email are copied
// from the linked person unless given; the copies are personal data, erased with the person.

import * as v from 'valibot';
import { sharedRow } from '../../db/dialect';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { emailAddress, oneLine, text, uuid } from '../platform/schemas';

/** Who a stay, journey or claim is for, as its view shows it: the speaker or crew member linked, and
 * the names (personal data). */
export const whoForViewEntries = {
  speakerId: v.nullable(uuid('The speaker it is for, when it is for one.')),
  crewMemberId: v.nullable(uuid('The crew member it is for, when it is for one.')),
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
};

/** Erasing the linked speaker or crew member erases the row too. */
export const linkedPeople = { speakers: 'speaker_id', crew_members: 'crew_member_id' } as const;

const nameText = (description: string) =>
  v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200), v.description(description));

export const whoForFields = {
  speakerId: v.optional(uuid('The speaker it is for (a speaker of this event).')),
  crewMemberId: v.optional(uuid('The crew member it is for (of this event).')),
  attendeeId: v.optional(uuid('The attendee it is for (a ticket of this event).')),
  firstName: v.optional(nameText('First name. Personal data; default: from the linked person.')),
  lastName: v.optional(nameText('Last name. Personal data; default: from the linked person.')),
  email: v.optional(
    v.pipe(emailAddress('Email address. Personal data; default: the linked person’s.'), v.maxLength(320)),
  ),
};

export interface WhoForInput {
  speakerId?: string;
  crewMemberId?: string;
  attendeeId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

export interface WhoFor {
  speaker_id: string | null;
  crew_member_id: string | null;
  attendee_id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

/** A one-field name (a speaker's, a crew member's) as first name and the rest. */
function splitName(name: string | null): [string | null, string | null] {
  if (!name) return [null, null];
  const [first, ...rest] = name.trim().split(/\s+/);
  return [first ?? null, rest.length > 0 ? rest.join(' ') : null];
}

/**
 * Finds the linked person at the event and the names to copy. Adds a field error for a link to no
 * one at this event, to someone who erased their data, for two links, and for no name at all.
 * `attendee` says whether the resource may link an attendee (a claim may not). The person's row is
 * held shared while their names are copied (db/dialect.ts sharedRow): their erasure meanwhile is
 * waited for and then refused here, or waits and then erases the copies too.
 */
export async function resolveWhoFor(
  ctx: Ctx,
  eventId: string,
  input: WhoForInput,
  errors: FieldErrors,
  attendee: boolean,
): Promise<WhoFor> {
  const links = (['speakerId', 'crewMemberId', 'attendeeId'] as const).filter((f) => input[f] !== undefined);
  for (const field of links.slice(1)) errors.add(field, `Give one of ${links.join(' and ')}, not both.`);
  let found: { first: string | null; last: string | null; email: string | null } | null = null;
  if (input.speakerId !== undefined) {
    const row = await sharedRow(
      ctx.db,
      ctx.db
        .selectFrom('speakers')
        .select(['name', 'email', 'erased'])
        .where('id', '=', input.speakerId)
        .where('event_id', '=', eventId),
    ).executeTakeFirst();
    if (!row) errors.add('speakerId', 'No such speaker at this event.');
    else if (row.erased === 1) errors.add('speakerId', 'This speaker erased their data.');
    else found = { ...named(splitName(row.name)), email: row.email };
  }
  if (input.crewMemberId !== undefined) {
    const row = await sharedRow(
      ctx.db,
      ctx.db
        .selectFrom('crew_members')
        .select(['name', 'email', 'erased'])
        .where('id', '=', input.crewMemberId)
        .where('event_id', '=', eventId),
    ).executeTakeFirst();
    if (!row) errors.add('crewMemberId', 'No such crew member at this event.');
    else if (row.erased === 1) errors.add('crewMemberId', 'This crew member erased their data.');
    else found = { ...named(splitName(row.name)), email: row.email };
  }
  if (input.attendeeId !== undefined) {
    if (!attendee) errors.add('attendeeId', 'Only a speaker or a crew member can be named here.');
    const row = await sharedRow(
      ctx.db,
      ctx.db
        .selectFrom('attendees')
        .select(['first_name', 'last_name', 'email', 'erased'])
        .where('id', '=', input.attendeeId)
        .where('event_id', '=', eventId),
    ).executeTakeFirst();
    if (!row) errors.add('attendeeId', 'No such attendee at this event.');
    else if (row.erased === 1) errors.add('attendeeId', 'This attendee erased their data.');
    else found = { first: row.first_name, last: row.last_name, email: row.email };
  }
  for (const field of ['firstName', 'lastName'] as const)
    if (input[field]?.trim() === '') errors.add(field, 'A name cannot be blank.');
  const first = input.firstName?.trim() ?? found?.first ?? null;
  const last = input.lastName?.trim() ?? found?.last ?? null;
  if (links.length === 0 && first === null && last === null)
    errors.add('firstName', 'Name who it is for: a speakerId, a crewMemberId, or a name.');
  return {
    speaker_id: input.speakerId ?? null,
    crew_member_id: input.crewMemberId ?? null,
    attendee_id: attendee ? (input.attendeeId ?? null) : null,
    first_name: first,
    last_name: last,
    email: input.email?.toLowerCase() ?? found?.email ?? null,
  };
}

function named([first, last]: [string | null, string | null]) {
  return { first, last };
}
