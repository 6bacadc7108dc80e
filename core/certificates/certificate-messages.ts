// The certificate family's message: certificate.issued, data = { event, certificate }.
import type { CertificateRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { certificateView } from './certificate-view';

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
