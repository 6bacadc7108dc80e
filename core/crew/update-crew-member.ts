import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkCrewMember, checkCrewTicket, crewMemberFields } from './crew-input';
import { crewMemberSchema } from './crew-view';
import { crewMemberNow, loadCrewMember } from './load-crew';

export const updateCrewMember = defineOperation({
  name: 'updateCrewMember',
  title: 'Change a crew member',
  description:
    'Changes a crew member; send only what changes (roles replaces the list; null clears email, phone or the crew ticket). Their shifts change with sign_up_for_shift and drop_shift. Needs crew:write.',
  scope: 'crew:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'crew',
  etag: true,
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('crew_members', (input) => input.crewMemberId),
    current: (ctx, input) => crewMemberNow(ctx, input.eventId, input.crewMemberId),
  },
  activity: { resourceType: 'crewMember', resourceId: (_input, member) => member.crewMemberId },
  input: v.object({
    eventId: uuid('The event id.'),
    crewMemberId: uuid('The crew member id.'),
    name: v.optional(crewMemberFields.name),
    email: v.optional(crewMemberFields.email),
    phone: v.optional(crewMemberFields.phone),
    roles: v.optional(crewMemberFields.roles),
    attendeeId: v.optional(crewMemberFields.attendeeId),
  }),
  output: crewMemberSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): an erasure of the person meanwhile is waited for,
    // so this sees the row erased instead of writing their data back.
    const current = await loadCrewMember(ctx, event.id, input.crewMemberId);
    const errors = new FieldErrors();
    checkCrewMember(input, errors);
    await checkCrewTicket(ctx, event.id, input.attendeeId, errors);
    errors.throwIfAny();
    const personal = input.name !== undefined || input.email !== undefined || input.phone !== undefined;
    // Erased data stays erased: nothing personal is written for that person again.
    if (current.erased === 1 && personal)
      throw problem(
        'invalidRequest',
        'This crew member erased their data; their name, email and phone cannot be set again.',
        {
          errors: ['name', 'email', 'phone']
            .filter((f) => input[f as 'name'] !== undefined)
            .map((field) => ({ field, message: 'The person erased their data.' })),
        },
      );
    await updateEventRow(ctx, 'crew_members', current.id, 'crew member', {
      ...(input.name !== undefined && { name: input.name.trim() }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.phone !== undefined && { phone: input.phone }),
      ...(input.roles !== undefined && { roles: JSON.stringify(input.roles.map((r) => r.trim())) }),
      ...(input.attendeeId !== undefined && { attendee_id: input.attendeeId }),
      ...(await changedNow(ctx)),
    });
    return crewMemberNow(ctx, event.id, current.id);
  },
});
