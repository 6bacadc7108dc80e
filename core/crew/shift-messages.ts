// The shift family's messages: data = { event, shift, crewMember }, both as they are after the
// crew member took the place or gave it back.
import type { EventRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import type { CrewMemberJoinedRow, ShiftJoinedRow } from './crew-rows';
import { crewMemberView, shiftView } from './crew-view';

export interface ShiftChange {
  event: EventRefSource & Pick<EventRow, 'time_zone'>;
  shift: ShiftJoinedRow;
  /** The crew members on the shift now. */
  shiftCrewIds: string[];
  crewMember: CrewMemberJoinedRow;
  /** The shifts the crew member is on now. */
  memberShiftIds: string[];
}

const shiftMessage = (change: ShiftChange) => ({
  eventId: change.event.id,
  data: {
    event: eventRef(change.event),
    shift: shiftView(change.event, change.shift, change.shiftCrewIds),
    crewMember: crewMemberView('unredacted', change.crewMember, change.memberShiftIds),
  },
});

export const shiftSignedUp = messageEmitter('shift.signed_up', shiftMessage);
export const shiftDropped = messageEmitter('shift.dropped', shiftMessage);
