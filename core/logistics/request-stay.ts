import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { checkNights, stayFields } from './stay-fields';
import { stayRequested } from './stay-messages';
import { loadStay, stayNow } from './stay-rows';
import { staySchema } from './stay-view';
import { resolveWhoFor, whoForFields } from './who-for';

export const requestStay = defineOperation({
  name: 'requestStay',
  title: 'Request a hotel stay',
  description:
    'Requests a hotel stay for a speaker, crew member or attendee (speakerId, crewMemberId, attendeeId: names and email copied unless given) or someone named, with the nights; stay.requested is sent. Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  etag: true,
  problems: [],
  activity: { resourceType: 'stay', resourceId: (_input, stay) => stay.stayId },
  input: v.object({
    eventId: uuid('The event id.'),
    ...whoForFields,
    checkInDate: stayFields.checkInDate,
    checkOutDate: stayFields.checkOutDate,
  }),
  output: staySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const who = await resolveWhoFor(ctx, event.id, input, errors, true);
    checkNights(input.checkInDate, input.checkOutDate, errors);
    errors.throwIfAny();
    const id = newId();
    await ctx.db
      .insertInto('stays')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        ...who,
        erased: 0,
        status: 'requested',
        hotel: null,
        room: null,
        check_in_date: input.checkInDate,
        check_out_date: input.checkOutDate,
        ...(await madeNow(ctx)),
      })
      .execute();
    await stayRequested.emit(ctx, { event, stay: await loadStay(ctx, event.id, id) });
    return stayNow(ctx, event.id, id);
  },
});
