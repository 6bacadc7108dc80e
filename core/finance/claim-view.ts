// The Expense claim resource: a claim of a speaker or crew member, as the API shows it and as its
// claim.* messages carry it (unredacted there: the dispatcher redacts per subscriber).
import * as v from 'valibot';
import type { ExpenseClaimRow } from '../../db/schema';
import { claimStatuses } from '../../db/values';
import { linkedPeople, whoForViewEntries } from '../logistics';
import { toMajor } from '../platform/money';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export const claimPersonal = declarePersonal({
  resource: 'expense claim',
  idField: 'claimId',
  table: 'expense_claims',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
  emailColumn: 'email',
  linkColumns: linkedPeople,
});

/** An expense claim of a speaker or crew member. */
export const claimSchema = v.object({
  claimId: uuid('The claim id.'),
  ...whoForViewEntries,
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  category: text('travel, hotel, meals, ...'),
  amount: v.pipe(v.number(), v.description("Amount claimed, in the currency's own decimals.")),
  currency: text('ISO 4217 currency.'),
  status: v.picklist(claimStatuses),
  submittedUtc: dateTime('When it was submitted.'),
  approvedUtc: v.nullable(dateTime('When it was approved.')),
  paidUtc: v.nullable(dateTime('When it was paid.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

/** A claim as a caller reads it, or unredacted as its messages carry it. */
export function claimView(
  row: ExpenseClaimRow,
  reader: Reader = 'unredacted',
): v.InferOutput<typeof claimSchema> {
  return applyPersonalData(
    reader,
    {
      claimId: row.id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      category: row.category,
      amount: toMajor(row.amount_minor, row.currency),
      currency: row.currency,
      status: row.status,
      submittedUtc: row.submitted_utc,
      approvedUtc: row.approved_utc,
      paidUtc: row.paid_utc,
    },
    claimPersonal,
    row.erased === 1,
  );
}
