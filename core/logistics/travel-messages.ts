// The travel family's message: travel.changed, data = { event, travel }, for a journey booked,
// changed or cancelled.
import type { TravelRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { travelView } from './travel-view';

export interface TravelChange {
  event: EventRefSource;
  travel: TravelRow;
}

export const travelChanged = messageEmitter('travel.changed', ({ event, travel }: TravelChange) => ({
  eventId: event.id,
  data: { event: eventRef(event), travel: travelView(travel) },
}));
