import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { shiftsOfCrew } from './assignments';
import { crewMemberNow, loadCrewMember } from './load-crew';
import { dropFromShift, touchCrewMember } from './shift-places';

export const removeCrewMember = defineOperation({
  name: 'removeCrewMember',
  title: 'Remove a crew member',
  description:
    'Removes a crew member from the event. They are taken off each of their shifts first, and shift.dropped is sent for each. Needs crew:write.',
  scope: 'crew:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'crew',
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('crew_members', (input) => input.crewMemberId),
    current: (ctx, input) => crewMemberNow(ctx, input.eventId, input.crewMemberId),
  },
  activity: { resourceType: 'crewMember', resourceId: (_input, removed) => removed.crewMemberId },
  input: v.object({ eventId: uuid('The event id.'), crewMemberId: uuid('The crew member id.') }),
  output: v.object({ crewMemberId: uuid('The crew member removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const member = await loadCrewMember(ctx, event.id, input.crewMemberId);
    // Their row first: a sign-up of theirs running now waits, so no shift is left without a message.
    await touchCrewMember(ctx, member.id);
    for (const shiftId of (await shiftsOfCrew(ctx.db, [member.id])).get(member.id)!)
      await dropFromShift(ctx, event, shiftId, member.id);
    await ctx.db.deleteFrom('crew_members').where('id', '=', member.id).execute();
    return { crewMemberId: member.id, deleted: true as const };
  },
});
