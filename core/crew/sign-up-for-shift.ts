import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { shiftSchema } from './crew-view';
import { loadCrewMember, loadShift, shiftNow } from './load-crew';
import { signUp } from './shift-places';

export const signUpForShift = defineOperation({
  name: 'signUpForShift',
  title: 'Sign up for a shift',
  description:
    'Puts a crew member on a shift and sends shift.signed_up; answers the shift. A full shift is refused with shiftFull, a shift of theirs at an overlapping time with shiftClash, each naming the shift. Needs crew:write.',
  scope: 'crew:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'crew',
  problems: ['notFound', 'shiftFull', 'shiftClash'],
  activity: {
    resourceType: 'shift',
    resourceId: (_input, shift) => shift.shiftId,
    summary: (input) => `crew member ${input.crewMemberId} signed up`,
  },
  input: v.object({
    eventId: uuid('The event id.'),
    shiftId: uuid('The shift id.'),
    crewMemberId: uuid('The crew member who takes the place.'),
  }),
  output: shiftSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const shift = await loadShift(ctx, event.id, input.shiftId);
    const member = await loadCrewMember(ctx, event.id, input.crewMemberId);
    const already = (await signUp(ctx, event, shift, member.id)) === 'already';
    const view = await shiftNow(ctx, event, shift.id);
    return already ? unchanged(view) : view;
  },
});
