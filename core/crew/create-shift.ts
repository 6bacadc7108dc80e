import * as v from 'valibot';
import { resolveTimes } from '../events';
import { FieldErrors } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { shiftSchema } from './crew-view';
import { shiftNow } from './load-crew';
import { checkRole, resolvePlace, shiftFields } from './shift-input';

export const createShift = defineOperation({
  name: 'createShift',
  title: 'Add a shift',
  description:
    "Adds a crew shift: role, place (a door or room of the event by id, or an area or other place by name), start and end in the venue's local time (startsLocal, endsLocal) and the people needed. Needs crew:write.",
  scope: 'crew:write',
  effect: 'write',
  extension: true,
  module: 'crew',
  idempotent: true,
  etag: true,
  problems: [],
  activity: {
    resourceType: 'shift',
    resourceId: (_input, shift) => shift.shiftId,
    summary: (_input, shift) => `${shift.role} from ${shift.startsLocal}`,
  },
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(shiftFields, ['role', 'place', 'needed']),
  }),
  output: shiftSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    checkRole(input.role, errors);
    const place = await resolvePlace(ctx, event.id, input.place, errors);
    const times = resolveTimes(input, event.time_zone, { starts: null, ends: null }, errors);
    errors.throwIfAny();
    const id = newId();
    await ctx.db
      .insertInto('shifts')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        role: input.role.trim(),
        ...place,
        starts_utc: times.starts!,
        ends_utc: times.ends!,
        needed: input.needed,
        ...(await madeNow(ctx)),
      })
      .execute();
    return shiftNow(ctx, event, id);
  },
});
