// The organiser as an invoice prints it: the seller object the API shows on every document and
// takes as the event's invoicing settings.
import * as v from 'valibot';
import { text } from '../platform/schemas';

export const sellerSchema = v.object({
  enabled: v.pipe(v.boolean(), v.description('The organiser issues invoices for this event.')),
  sellerName: text('The organiser, as printed.'),
  sellerAddress: v.nullable(text('Its address, as printed.')),
  sellerVatNumber: v.nullable(text('Its VAT number.')),
  sellerRegistration: v.nullable(text('Its company registration.')),
  prefix: text('What the numbers of the series begin with.'),
  footer: v.nullable(text('Text printed at the foot (payment terms, bank details).')),
});
