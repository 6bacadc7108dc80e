// The stay family's messages: data = { event, stay }, one type per status a stay moves to, and
// stay.changed when its details change in the same status.
import type { StayRow } from '../../db/schema';
import type { StayStatus, WebhookEventType } from '../../db/values';
import { type EventRefSource, eventRef } from '../events';
import { type MessageEmitter, messageEmitter } from '../platform/storage/message-emitter';
import { stayView } from './stay-view';

export interface StayChange {
  event: EventRefSource;
  stay: StayRow;
}

const stayMessage = ({ event, stay }: StayChange) => ({
  eventId: event.id,
  data: { event: eventRef(event), stay: stayView(stay) },
});

export const stayRequested = messageEmitter('stay.requested', stayMessage);
export const stayAssigned = messageEmitter('stay.assigned', stayMessage);
export const stayChanged = messageEmitter('stay.changed', stayMessage);
export const stayCancelled = messageEmitter('stay.cancelled', stayMessage);

/** The message a stay sends on reaching each status. */
export const stayStatusEmitters: Record<
  StayStatus,
  MessageEmitter<Extract<WebhookEventType, `stay.${string}`>, StayChange>
> = { requested: stayRequested, assigned: stayAssigned, cancelled: stayCancelled };
