import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { moveStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { stayCancelled } from './stay-messages';
import { loadStay, stayNow } from './stay-rows';
import { staySchema } from './stay-view';

export const cancelStay = defineOperation({
  name: 'cancelStay',
  title: 'Cancel a hotel stay',
  description:
    'Cancels a requested or assigned stay; it is kept, cancelled, and stay.cancelled is sent. An already cancelled stay is refused (statusNotAllowed). Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  etag: true,
  problems: ['notFound', 'statusNotAllowed'],
  ifMatch: {
    hold: heldRow('stays', (input) => input.stayId),
    current: (ctx, input) => stayNow(ctx, input.eventId, input.stayId),
  },
  activity: { resourceType: 'stay', resourceId: (_input, stay) => stay.stayId },
  input: v.object({ eventId: uuid('The event id.'), stayId: uuid('The stay id.') }),
  output: staySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const stay = await loadStay(ctx, event.id, input.stayId);
    // A status move: two cancellations at once send one stay.cancelled.
    await moveStatus(ctx, {
      table: 'stays',
      row: stay,
      called: 'stay',
      from: ['requested', 'assigned'],
      action: 'cancelled',
      changes: { status: 'cancelled', ...(await changedNow(ctx)) },
    });
    await stayCancelled.emit(ctx, { event, stay: await loadStay(ctx, event.id, stay.id) });
    return stayNow(ctx, event.id, stay.id);
  },
});
