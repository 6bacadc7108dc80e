import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { detail, mention } from '../platform/mentions';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { requireStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { assignStay } from './assign-stay';
import { checkStayChange, stayFields } from './stay-fields';
import { stayChanged } from './stay-messages';
import { loadStay, stayNow } from './stay-rows';
import { staySchema } from './stay-view';

export const updateStay = defineOperation({
  name: 'updateStay',
  title: 'Change a hotel stay',
  description:
    'Changes the nights of a stay, or the hotel and room of an assigned one; send only what changes (null clears the room). stay.changed is sent. A cancelled stay is refused (statusNotAllowed). Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  extension: true,
  repeatable: true,
  etag: true,
  problems: ['notFound', 'statusNotAllowed'],
  ifMatch: {
    hold: heldRow('stays', (input) => input.stayId),
    current: (ctx, input) => stayNow(ctx, input.eventId, input.stayId),
  },
  activity: { resourceType: 'stay', resourceId: (_input, stay) => stay.stayId },
  input: v.object({
    eventId: uuid('The event id.'),
    stayId: uuid('The stay id.'),
    checkInDate: v.optional(stayFields.checkInDate),
    checkOutDate: v.optional(stayFields.checkOutDate),
    hotel: v.optional(stayFields.hotel),
    room: v.optional(v.nullable(stayFields.room)),
  }),
  output: staySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): checked against its dates as they stand.
    const stay = await loadStay(ctx, event.id, input.stayId);
    const errors = new FieldErrors();
    checkStayChange(input, stay, errors);
    errors.throwIfAny();
    requireStatus(stay, ['requested', 'assigned'], 'stay', 'changed');
    if (stay.status === 'requested')
      for (const field of ['hotel', 'room'] as const)
        if (input[field] !== undefined)
          errors.add(field, detail`A requested stay gets its hotel with ${mention(assignStay)}.`);
    errors.throwIfAny();
    const changes = {
      ...(input.checkInDate !== undefined && { check_in_date: input.checkInDate }),
      ...(input.checkOutDate !== undefined && { check_out_date: input.checkOutDate }),
      ...(input.hotel !== undefined && { hotel: input.hotel.trim() }),
      ...(input.room !== undefined && { room: input.room?.trim() ?? null }),
    };
    // Nothing sent, nothing changed: no message.
    if (Object.keys(changes).length === 0) return stayNow(ctx, event.id, stay.id);
    await updateEventRow(ctx, 'stays', stay.id, 'stay', { ...changes, ...(await changedNow(ctx)) });
    await stayChanged.emit(ctx, { event, stay: await loadStay(ctx, event.id, stay.id) });
    return stayNow(ctx, event.id, stay.id);
  },
});
