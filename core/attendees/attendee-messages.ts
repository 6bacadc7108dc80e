// The attendee family's messages: data = { event, attendee }, the attendee as it is now.

import type { WebhookEventType } from '../../db/values';
import { type EventRefSource, eventRef } from '../events';
import type { Ctx } from '../platform/context';
import { type MessageEmitter, messageEmitter } from '../platform/storage/message-emitter';
import { type AttendeeJoinedRow, attendeeQuery, attendeeView } from './attendee-view';

export interface AttendeeChange {
  event: EventRefSource;
  attendee: AttendeeJoinedRow;
}

const attendeeMessage = ({ event, attendee }: AttendeeChange, origin: string) => ({
  eventId: event.id,
  data: { event: eventRef(event), attendee: attendeeView('unredacted', attendee, origin) },
});

export const attendeeRegistered = messageEmitter('attendee.registered', attendeeMessage);
export const attendeeUpdated = messageEmitter('attendee.updated', attendeeMessage);
export const attendeeCancelled = messageEmitter('attendee.cancelled', attendeeMessage);
export const attendeeErased = messageEmitter('attendee.erased', attendeeMessage);

/** Emits one message per attendee of the event, read as they are now, in the order given. */
export async function emitForAttendees(
  ctx: Ctx,
  emitter: MessageEmitter<Extract<WebhookEventType, `attendee.${string}`>, AttendeeChange>,
  event: EventRefSource,
  attendeeIds: string[],
): Promise<void> {
  if (attendeeIds.length === 0) return;
  const rows: AttendeeJoinedRow[] = await attendeeQuery(ctx.db)
    .where('attendees.id', 'in', attendeeIds)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const found = attendeeIds.flatMap((id) => byId.get(id) ?? []);
  await emitter.emitEach(
    ctx,
    found.map((attendee) => ({ event, attendee })),
  );
}
