// The e-mail log's personal data: the recipient's address and the body (it names the person and
// holds their ticket link) are withheld without people:read and erased with the person, with the
// HTML and attachments (the calendar entry names them) that no view shows. An erased person's
// messages still queued are cancelled (erase-mail.ts), so nothing reaches them later.
import { declarePersonal } from '../platform/pipeline/personal-data';

export const mailPersonal = declarePersonal({
  resource: 'email',
  idField: 'emailId',
  table: 'mail_messages',
  fields: { recipient: 'recipient', text: 'text_body' },
  storedOnly: ['html_body', 'attachments'],
  emailColumn: 'recipient',
  attendeeColumn: 'attendee_id',
});
