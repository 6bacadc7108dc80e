// The certificate family's message: certificate.issued, data = { event, certificate }.
import type { CertificateRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events/event-view';
import { messageEmitter } from '../platform/storage/message-emitter';
import { certificateView } from './message-resources';

export interface CertificateChange {
  event: EventRefSource;
  certificate: CertificateRow;
}

export const certificateIssued = messageEmitter(
  'certificate.issued',
  ({ event, certificate }: CertificateChange) => ({
    eventId: event.id,
    data: { event: eventRef(event), certificate: certificateView(certificate) },
  }),
);
