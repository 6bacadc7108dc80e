// The personal fields of a waiting-list entry, declared once: withheld without people:read, nulled
// by erasure (core/admin/personal-resources.ts lists this declaration), scrubbed from stored copies.
import { declarePersonal } from '../platform/pipeline/personal-data';

export const waitingPersonal = declarePersonal({
  resource: 'waiting list entry',
  idField: 'waitingListEntryId',
  table: 'waiting_list_entries',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
  emailColumn: 'email',
});
