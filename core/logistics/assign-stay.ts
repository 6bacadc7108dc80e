import * as v from 'valibot';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { moveStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkStayChange, stayFields } from './stay-fields';
import { stayAssigned } from './stay-messages';
import { loadStay, stayNow } from './stay-rows';
import { staySchema } from './stay-view';

export const assignStay = defineOperation({
  name: 'assignStay',
  title: 'Assign a hotel stay',
  description:
    'Assigns a requested stay to a hotel (and room), optionally with the nights booked; stay.assigned is sent. A stay already assigned or cancelled is refused (statusNotAllowed). Needs logistics:write.',
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
    hotel: stayFields.hotel,
    room: v.optional(stayFields.room),
    checkInDate: v.optional(stayFields.checkInDate),
    checkOutDate: v.optional(stayFields.checkOutDate),
  }),
  output: staySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const stay = await loadStay(ctx, event.id, input.stayId);
    const errors = new FieldErrors();
    checkStayChange(input, stay, errors);
    errors.throwIfAny();
    // A status move, only from requested: two assignments at once send one message.
    await moveStatus(ctx, {
      table: 'stays',
      row: stay,
      called: 'stay',
      from: ['requested'],
      action: 'assigned',
      changes: {
        status: 'assigned',
        hotel: input.hotel.trim(),
        room: input.room?.trim() ?? null,
        ...(input.checkInDate !== undefined && { check_in_date: input.checkInDate }),
        ...(input.checkOutDate !== undefined && { check_out_date: input.checkOutDate }),
        ...(await changedNow(ctx)),
      },
    });
    await stayAssigned.emit(ctx, { event, stay: await loadStay(ctx, event.id, stay.id) });
    return stayNow(ctx, event.id, stay.id);
  },
});
