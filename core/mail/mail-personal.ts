// The e-mail log's personal data: the recipient's address is withheld without people:read and
// erased with the person, with the bodies and attachments no view shows (they name the person and
// hold their ticket link; the calendar entry names them too). An erased person's
// messages still queued are cancelled (erase-mail.ts), so nothing reaches them later.
import { declarePersonal } from '../platform/pipeline/personal-data';

export const mailPersonal = declarePersonal({
  resource: 'email',
  idField: 'emailId',
  table: 'mail_messages',
  fields: { recipient: 'recipient' },
  storedOnly: ['text_body', 'html_body', 'attachments'],
  emailColumn: 'recipient',
  attendeeColumn: 'attendee_id',
});
