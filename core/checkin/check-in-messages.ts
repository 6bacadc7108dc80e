// The check-in family's message: checkin.created, data = { event, checkIn, attendee }, for a scan
// that let someone in or out, with the attendee as the scan left them.
import type { CheckInRow, DoorRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees';
import { attendeeView } from '../attendees';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { checkInView } from './check-in-view';

export interface CheckInChange {
  event: EventRefSource;
  checkIn: CheckInRow;
  door: Pick<DoorRow, 'name' | 'kind' | 'session_id'>;
  attendee: AttendeeJoinedRow;
}

export const checkInCreated = messageEmitter(
  'checkin.created',
  ({ event, checkIn, door, attendee }: CheckInChange, origin: string) => ({
    eventId: event.id,
    data: {
      event: eventRef(event),
      checkIn: checkInView(checkIn, door),
      attendee: attendeeView('unredacted', attendee, origin),
    },
  }),
);
