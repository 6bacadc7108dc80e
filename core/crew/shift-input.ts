// What a shift is made of, for creating and changing one: a role, a place (a door or room of the
// event by its id, or an area or other place by its name), a time in the venue's zone (the Local
// fields, or Utc fields that win over them, as sessions take them) and the people it needs.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { dateTime, localTime, oneLine, uuid } from '../platform/schemas';
import { shiftPlaceKinds } from './crew-view';

export const shiftFields = {
  role: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(50),
    v.description('What the shift is for: door, infoDesk, room, greeter, swag or a role of your own.'),
  ),
  place: v.object({
    kind: v.pipe(v.picklist(shiftPlaceKinds), v.description('door, room, area or other.')),
    id: v.optional(v.nullable(uuid('The door or room of this event; only for a door or a room.'))),
    name: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          oneLine,
          v.maxLength(200),
          v.description("Where; needed for an area or other place, a door's or room's own name otherwise."),
        ),
      ),
    ),
  }),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  startsUtc: dateTime('Wins over startsLocal.'),
  endsUtc: dateTime('Wins over endsLocal.'),
  needed: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(10_000),
    v.description('People needed. It cannot be set below those already on the shift.'),
  ),
};

export type PlaceInput = v.InferOutput<typeof shiftFields.place>;

/** The place's columns, checked: a door or room of the event by id, an area or other by name. */
export async function resolvePlace(
  ctx: Ctx,
  eventId: string,
  place: PlaceInput,
  errors: FieldErrors,
): Promise<{ place_kind: PlaceInput['kind']; place_id: string | null; place_name: string | null }> {
  const name = place.name?.trim() || null;
  const id = place.id ?? null;
  if (place.kind === 'door' || place.kind === 'room') {
    if (id === null) errors.add('place.id', `A ${place.kind} shift names the ${place.kind} by its id.`);
    else {
      const found = await ctx.db
        .selectFrom(place.kind === 'door' ? 'doors' : 'rooms')
        .select('id')
        .where('id', '=', id)
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      if (!found) errors.add('place.id', `${id} is not a ${place.kind} of this event.`);
    }
  } else {
    if (id !== null) errors.add('place.id', 'Only a door or a room is named by an id.');
    if (name === null)
      errors.add('place.name', `An ${place.kind === 'area' ? 'area' : 'other place'} needs a name.`);
  }
  return { place_kind: place.kind, place_id: id, place_name: name };
}

/** The role's rule the schema cannot state: not blank. */
export function checkRole(role: string | undefined, errors: FieldErrors): void {
  if (role !== undefined && role.trim() === '') errors.add('role', 'The role cannot be blank.');
}
