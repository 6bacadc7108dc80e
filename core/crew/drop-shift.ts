import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { loadCrewMember, loadShift } from './load-crew';
import { dropFromShift } from './shift-places';

export const dropShift = defineOperation({
  name: 'dropShift',
  title: 'Drop a shift',
  description:
    'Takes a crew member off a shift, giving their place back, and sends shift.dropped. Needs crew:write.',
  scope: 'crew:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'crew',
  problems: ['notFound'],
  activity: {
    resourceType: 'shift',
    resourceId: (_input, dropped) => dropped.shiftId,
    summary: (input) => `crew member ${input.crewMemberId} dropped it`,
  },
  input: v.object({
    eventId: uuid('The event id.'),
    shiftId: uuid('The shift id.'),
    crewMemberId: uuid('The crew member who gives the place back.'),
  }),
  output: v.object({
    shiftId: uuid('The shift.'),
    crewMemberId: uuid('The crew member taken off it.'),
    deleted: v.literal(true),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const shift = await loadShift(ctx, event.id, input.shiftId);
    const member = await loadCrewMember(ctx, event.id, input.crewMemberId);
    if (!(await dropFromShift(ctx, event, shift.id, member.id)))
      throw problem('notFound', `Crew member ${member.id} is not on shift ${shift.id}.`);
    return { shiftId: shift.id, crewMemberId: member.id, deleted: true as const };
  },
});
