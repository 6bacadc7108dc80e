import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { checkCrewMember, checkCrewTicket, crewMemberFields } from './crew-input';
import { crewMemberSchema } from './crew-view';
import { crewMemberNow } from './load-crew';

export const inviteCrewMember = defineOperation({
  name: 'inviteCrewMember',
  title: 'Invite a crew member',
  description:
    'Adds a volunteer or staff member to the crew of an event, with their roles and, optionally, their crew ticket (an attendee of the event). Name, email and phone are shown only with people:read. Needs crew:write.',
  scope: 'crew:write',
  effect: 'write',
  extension: true,
  module: 'crew',
  idempotent: true,
  etag: true,
  problems: [],
  activity: { resourceType: 'crewMember', resourceId: (_input, member) => member.crewMemberId },
  input: v.object({
    eventId: uuid('The event id.'),
    name: crewMemberFields.name,
    email: v.optional(crewMemberFields.email),
    phone: v.optional(crewMemberFields.phone),
    roles: v.optional(crewMemberFields.roles),
    attendeeId: v.optional(crewMemberFields.attendeeId),
  }),
  output: crewMemberSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    checkCrewMember(input, errors);
    await checkCrewTicket(ctx, event.id, input.attendeeId, errors);
    errors.throwIfAny();
    const stamp = await madeNow(ctx);
    const id = newId();
    await ctx.db
      .insertInto('crew_members')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        name: input.name.trim(),
        email: input.email ?? null,
        phone: input.phone ?? null,
        roles: JSON.stringify((input.roles ?? []).map((role) => role.trim())),
        attendee_id: input.attendeeId ?? null,
        invited_utc: stamp.created_utc,
        last_seen_utc: null,
        erased: 0,
        ...stamp,
      })
      .execute();
    return crewMemberNow(ctx, event.id, id);
  },
});
