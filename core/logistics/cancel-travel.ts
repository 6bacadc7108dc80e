import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { moveStatus } from '../platform/pipeline/status-move';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { travelChanged } from './travel-messages';
import { loadTravel, travelNow } from './travel-rows';
import { travelSchema } from './travel-view';

export const cancelTravel = defineOperation({
  name: 'cancelTravel',
  title: 'Cancel a journey',
  description:
    'Cancels a booked journey; it is kept with status cancelled, and travel.changed is sent with that status. An already cancelled journey is refused (statusNotAllowed). Needs logistics:write.',
  scope: 'logistics:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  etag: true,
  problems: ['notFound', 'statusNotAllowed'],
  ifMatch: {
    hold: heldRow('travel', (input) => input.travelId),
    current: (ctx, input) => travelNow(ctx, input.eventId, input.travelId),
  },
  activity: { resourceType: 'travel', resourceId: (_input, travel) => travel.travelId },
  input: v.object({ eventId: uuid('The event id.'), travelId: uuid('The travel id.') }),
  output: travelSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const travel = await loadTravel(ctx, event.id, input.travelId);
    // A status move: two cancellations at once send one message.
    await moveStatus(ctx, {
      table: 'travel',
      row: travel,
      called: 'journey',
      what: 'travel',
      from: ['booked'],
      action: 'cancelled',
      changes: { status: 'cancelled', ...(await changedNow(ctx)) },
    });
    await travelChanged.emit(ctx, { event, travel: await loadTravel(ctx, event.id, travel.id) });
    return travelNow(ctx, event.id, travel.id);
  },
});
