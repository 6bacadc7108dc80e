import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { stayCancelled } from './stay-messages';
import { loadStay, stayNow } from './stay-rows';

export const deleteStay = defineOperation({
  name: 'deleteStay',
  title: 'Remove a hotel stay',
  description:
    'Removes a stay entered by mistake (cancel_stay keeps it, cancelled). A stay not yet cancelled sends stay.cancelled as it goes, so receivers learn it is off. Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('stays', (input) => input.stayId),
    current: (ctx, input) => stayNow(ctx, input.eventId, input.stayId),
  },
  activity: { resourceType: 'stay', resourceId: (_input, removed) => removed.stayId },
  input: v.object({ eventId: uuid('The event id.'), stayId: uuid('The stay id.') }),
  output: v.object({ stayId: uuid('The stay removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const stay = await loadStay(ctx, event.id, input.stayId);
    // Removed by another call meanwhile: answered as after it (notFound), and receivers told once.
    await deleteEventRow(ctx, 'stays', stay.id, 'stay');
    if (stay.status !== 'cancelled')
      await stayCancelled.emit(ctx, { event, stay: { ...stay, status: 'cancelled' } });
    return { stayId: stay.id, deleted: true as const };
  },
});
