import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { travelChanged } from './travel-messages';
import { loadTravel, travelNow } from './travel-rows';

export const deleteTravel = defineOperation({
  name: 'deleteTravel',
  title: 'Remove a journey',
  description:
    'Removes a journey entered by mistake (cancel_travel keeps it, cancelled). A journey still booked sends travel.changed with status cancelled as it goes, so receivers learn it is off. Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('travel', (input) => input.travelId),
    current: (ctx, input) => travelNow(ctx, input.eventId, input.travelId),
  },
  activity: { resourceType: 'travel', resourceId: (_input, removed) => removed.travelId },
  input: v.object({ eventId: uuid('The event id.'), travelId: uuid('The travel id.') }),
  output: v.object({ travelId: uuid('The journey removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const travel = await loadTravel(ctx, event.id, input.travelId);
    // Removed by another call meanwhile: answered as after it (notFound), and receivers told once.
    await deleteEventRow(ctx, 'travel', travel.id, 'travel');
    if (travel.status === 'booked')
      await travelChanged.emit(ctx, { event, travel: { ...travel, status: 'cancelled' } });
    return { travelId: travel.id, deleted: true as const };
  },
});
