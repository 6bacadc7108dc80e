// What a crew member is made of, for inviting and changing one: the roles are the organiser's own
// words (door, infoDesk, room, greeter, swag and others), each once; the crew ticket, when linked,
// is an attendee of the same event.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { emailAddress, oneLine, personName, uuid } from '../platform/schemas';

export const crewMemberFields = {
  name: personName,
  email: v.nullable(
    v.pipe(emailAddress('Their email address. Personal data; null: none.'), v.maxLength(320)),
  ),
  phone: v.nullable(
    v.pipe(
      v.string(),
      oneLine,
      v.minLength(1),
      v.maxLength(50),
      v.description('Their phone. Personal data; null: none.'),
    ),
  ),
  roles: v.pipe(
    v.array(v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(50))),
    v.maxLength(20),
    v.description('door, infoDesk, room, greeter, swag or others of your own; each once.'),
  ),
  attendeeId: v.nullable(uuid('Their crew ticket: an attendee of this event. Null: none.')),
};

/** Checks the rules the schema cannot: a name and roles not blank, each role once. */
export function checkCrewMember(input: { name?: string; roles?: string[] }, errors: FieldErrors): void {
  if (input.name !== undefined && input.name.trim() === '') errors.add('name', 'The name cannot be blank.');
  const seen = new Set<string>();
  input.roles?.forEach((role, i) => {
    if (role.trim() === '') errors.add(`roles.${i}`, 'A role cannot be blank.');
    else if (seen.has(role.trim())) errors.add(`roles.${i}`, `${role} is named twice.`);
    seen.add(role.trim());
  });
}

/** Checks that a crew ticket sent is an attendee of the event. */
export async function checkCrewTicket(
  ctx: Ctx,
  eventId: string,
  attendeeId: string | null | undefined,
  errors: FieldErrors,
): Promise<void> {
  if (!attendeeId) return;
  const attendee = await ctx.db
    .selectFrom('attendees')
    .select('id')
    .where('id', '=', attendeeId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!attendee) errors.add('attendeeId', `${attendeeId} is not an attendee of this event.`);
}
