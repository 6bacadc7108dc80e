import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadShift, shiftNow } from './load-crew';
import { dropFromShift, lockCrewThenShift, touchShift } from './shift-places';

export const deleteShift = defineOperation({
  name: 'deleteShift',
  title: 'Remove a shift',
  description:
    'Removes a shift. Everyone on it is taken off first, and shift.dropped is sent for each, so they are told. Needs crew:write.',
  scope: 'crew:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'crew',
  problems: ['notFound'],
  ifMatch: {
    // The people on it, then the shift, as the write takes them.
    hold: (ctx, input) => lockCrewThenShift(ctx, input.eventId, input.shiftId),
    async current(ctx, input) {
      return shiftNow(ctx, await loadEvent(ctx, input.eventId), input.shiftId);
    },
  },
  activity: { resourceType: 'shift', resourceId: (_input, removed) => removed.shiftId },
  input: v.object({ eventId: uuid('The event id.'), shiftId: uuid('The shift id.') }),
  output: v.object({ shiftId: uuid('The shift removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const shift = await loadShift(ctx, event.id, input.shiftId);
    // The people on it, then the shift (shift-places.ts's lock order): no sign-up can land after
    // they are read, and a drop of one of them beside this waits instead of meeting it in a circle.
    const crewIds = await lockCrewThenShift(ctx, event.id, shift.id);
    await touchShift(ctx, shift.id);
    for (const crewMemberId of crewIds) await dropFromShift(ctx, event, shift.id, crewMemberId);
    await ctx.db.deleteFrom('shifts').where('id', '=', shift.id).execute();
    return { shiftId: shift.id, deleted: true as const };
  },
});
