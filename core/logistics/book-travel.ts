import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { checkJourney, travelFields, utc } from './travel-fields';
import { travelChanged } from './travel-messages';
import { loadTravel, travelNow } from './travel-rows';
import { travelSchema } from './travel-view';
import { resolveWhoFor, whoForFields } from './who-for';

const { attendeeId: _attendee, ...whoFields } = whoForFields;

export const bookTravel = defineOperation({
  name: 'bookTravel',
  title: 'Book a journey',
  description:
    'Records a journey booked for a speaker or crew member (speakerId, crewMemberId: names copied unless given) or someone named: mode, from, to, times and reference; travel.changed is sent. Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  etag: true,
  problems: [],
  activity: { resourceType: 'travel', resourceId: (_input, travel) => travel.travelId },
  input: v.object({
    eventId: uuid('The event id.'),
    ...whoFields,
    mode: travelFields.mode,
    from: travelFields.from,
    to: travelFields.to,
    departsUtc: travelFields.departsUtc,
    arrivesUtc: travelFields.arrivesUtc,
    reference: v.optional(travelFields.reference),
  }),
  output: travelSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const { attendee_id: _none, ...who } = await resolveWhoFor(ctx, event.id, input, errors, false);
    checkJourney(input, input.departsUtc, input.arrivesUtc, errors, 'arrivesUtc');
    errors.throwIfAny();
    const id = newId();
    await ctx.db
      .insertInto('travel')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        ...who,
        erased: 0,
        status: 'booked',
        mode: input.mode,
        from_place: input.from.trim(),
        to_place: input.to.trim(),
        departs_utc: utc(input.departsUtc),
        arrives_utc: utc(input.arrivesUtc),
        reference: input.reference?.trim() ?? null,
        ...(await madeNow(ctx)),
      })
      .execute();
    await travelChanged.emit(ctx, { event, travel: await loadTravel(ctx, event.id, id) });
    return travelNow(ctx, event.id, id);
  },
});
