import * as v from 'valibot';
import { resolveTimes } from '../events';
import { FieldErrors } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { detail, mention } from '../platform/mentions';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { crewOnShifts } from './assignments';
import { shiftSchema } from './crew-view';
import { dropShift } from './drop-shift';
import { loadShift, shiftNow } from './load-crew';
import { checkRole, resolvePlace, shiftFields } from './shift-input';
import { clashingShift, lockCrewThenShift, refuseClash, touchCrewMember, touchShift } from './shift-places';

export const updateShift = defineOperation({
  name: 'updateShift',
  title: 'Change a shift',
  description:
    'Changes a shift; send only what changes (place replaces the whole place). needed cannot go below the people on it, nor a new time overlap another shift of theirs. Needs crew:write.',
  scope: 'crew:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'crew',
  etag: true,
  problems: ['notFound', 'capacityBelowTaken', 'shiftClash'],
  ifMatch: {
    // The people on it, then the shift, as the write takes them.
    hold: (ctx, input) => lockCrewThenShift(ctx, input.eventId, input.shiftId),
    async current(ctx, input) {
      return shiftNow(ctx, await loadEvent(ctx, input.eventId), input.shiftId);
    },
  },
  activity: { resourceType: 'shift', resourceId: (_input, shift) => shift.shiftId },
  input: v.object({
    eventId: uuid('The event id.'),
    shiftId: uuid('The shift id.'),
    ...changeFields(shiftFields),
  }),
  output: shiftSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // The people on it, then the shift (shift-places.ts's lock order): a sign-up, a drop or another
    // change waits for this one, and the checks below see the row and the people it writes over.
    const crewIds = await lockCrewThenShift(ctx, event.id, input.shiftId);
    const current = await loadShift(ctx, event.id, input.shiftId);
    const errors = new FieldErrors();
    checkRole(input.role, errors);
    const place = input.place ? await resolvePlace(ctx, event.id, input.place, errors) : undefined;
    const times = resolveTimes(
      input,
      event.time_zone,
      { starts: current.starts_utc, ends: current.ends_utc },
      errors,
    );
    errors.throwIfAny();
    const starts = times.starts!;
    const ends = times.ends!;
    const needed = input.needed ?? current.needed;

    await touchShift(ctx, current.id);
    if (starts !== current.starts_utc || ends !== current.ends_utc) {
      for (const crewMemberId of crewIds) {
        const clash = await clashingShift(ctx, crewMemberId, { starts, ends, exceptShiftId: current.id });
        if (clash) refuseClash(clash, `Crew member ${crewMemberId}, on this shift, is`);
        // Their shifts are listed in time order, which may change.
        await touchCrewMember(ctx, crewMemberId);
      }
    }
    // The people on it are counted in the same statement that sets needed.
    const changes = {
      ...(input.role !== undefined && { role: input.role.trim() }),
      ...place,
      starts_utc: starts,
      ends_utc: ends,
      needed,
      ...(await changedNow(ctx)),
    };
    const changed = await updateEventRow(ctx, 'shifts', current.id, 'shift', changes, {
      onlyIf: (update) =>
        update.where(
          (eb) =>
            eb
              .selectFrom('shift_assignments')
              .select((c) => c.fn.countAll<number>().as('n'))
              .where('shift_assignments.shift_id', '=', current.id),
          '<=',
          needed,
        ),
    });
    if (!changed) {
      const taken = (await crewOnShifts(ctx.db, [current.id])).get(current.id)!.length;
      throw problem(
        'capacityBelowTaken',
        detail`${taken} people are on this shift, so it cannot need fewer; take someone off it first (${mention(dropShift)}).`,
        { taken },
      );
    }
    return shiftNow(ctx, event, current.id);
  },
});
