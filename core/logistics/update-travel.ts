import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { requireStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkJourney, travelFields, utc } from './travel-fields';
import { travelChanged } from './travel-messages';
import { loadTravel, travelNow } from './travel-rows';
import { travelSchema } from './travel-view';

export const updateTravel = defineOperation({
  name: 'updateTravel',
  title: 'Change a journey',
  description:
    'Changes a booked journey; send only what changes (null clears the reference). travel.changed is sent. A cancelled journey is refused (statusNotAllowed). Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  etag: true,
  problems: ['notFound', 'statusNotAllowed'],
  ifMatch: {
    hold: heldRow('travel', (input) => input.travelId),
    current: (ctx, input) => travelNow(ctx, input.eventId, input.travelId),
  },
  activity: { resourceType: 'travel', resourceId: (_input, travel) => travel.travelId },
  input: v.object({
    eventId: uuid('The event id.'),
    travelId: uuid('The travel id.'),
    mode: v.optional(travelFields.mode),
    from: v.optional(travelFields.from),
    to: v.optional(travelFields.to),
    departsUtc: v.optional(travelFields.departsUtc),
    arrivesUtc: v.optional(travelFields.arrivesUtc),
    reference: v.optional(v.nullable(travelFields.reference)),
  }),
  output: travelSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): checked against its times as they stand.
    const travel = await loadTravel(ctx, event.id, input.travelId);
    const errors = new FieldErrors();
    checkJourney(
      input,
      input.departsUtc ?? travel.departs_utc,
      input.arrivesUtc ?? travel.arrives_utc,
      errors,
      input.arrivesUtc === undefined ? 'departsUtc' : 'arrivesUtc',
    );
    errors.throwIfAny();
    requireStatus(travel, ['booked'], 'journey', 'changed');
    if (travel.erased === 1 && input.reference)
      errors.add('reference', 'The traveller erased their data; the reference cannot be set again.');
    errors.throwIfAny();
    const changes = {
      ...(input.mode !== undefined && { mode: input.mode }),
      ...(input.from !== undefined && { from_place: input.from.trim() }),
      ...(input.to !== undefined && { to_place: input.to.trim() }),
      ...(input.departsUtc !== undefined && { departs_utc: utc(input.departsUtc) }),
      ...(input.arrivesUtc !== undefined && { arrives_utc: utc(input.arrivesUtc) }),
      ...(input.reference !== undefined && { reference: input.reference?.trim() ?? null }),
    };
    // Nothing sent, nothing changed: no message.
    if (Object.keys(changes).length === 0) return travelNow(ctx, event.id, travel.id);
    await updateEventRow(ctx, 'travel', travel.id, 'travel', { ...changes, ...(await changedNow(ctx)) });
    await travelChanged.emit(ctx, { event, travel: await loadTravel(ctx, event.id, travel.id) });
    return travelNow(ctx, event.id, travel.id);
  },
});
