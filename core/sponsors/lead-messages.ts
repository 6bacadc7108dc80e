// The lead family's message: lead.captured, data = { event, sponsor, lead }, for a lead the
// visitor agreed to share.
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { type LeadJoinedRow, leadItemView } from './lead-view';

export interface LeadChange {
  event: EventRefSource;
  lead: LeadJoinedRow;
}

export const leadCaptured = messageEmitter('lead.captured', ({ event, lead }: LeadChange) => ({
  eventId: event.id,
  data: { event: eventRef(event), ...leadItemView('unredacted', lead) },
}));
