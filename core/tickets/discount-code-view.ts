import * as v from 'valibot';
import type { DiscountCodeRow, EventRow } from '../../db/schema';
import { toMajor } from '../platform/money';
import { dateTime, int32, text, uuid } from '../platform/schemas';

export const discountCodeSchema = v.object({
  discountCodeId: uuid('The discount code id.'),
  eventId: uuid('The event id.'),
  code: text('The letters buyers type (matched without regard to case).'),
  percent: v.nullable(int32('Percentage off, 1 to 100; null for an amount off.')),
  amount: v.nullable(
    v.pipe(v.number(), v.description('Amount off per ticket, VAT included; null for a percentage.')),
  ),
  currency: text('ISO 4217 currency of the amount.'),
  maxUses: v.nullable(int32('How many tickets it may be used for; null without a limit.')),
  used: int32('How many tickets it was used for.'),
  validFromUtc: v.nullable(dateTime('Usable from.')),
  validUntilUtc: v.nullable(dateTime('Usable until.')),
  ticketTypeIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Ticket types it applies to; empty for all.'),
  ),
  active: v.pipe(
    v.boolean(),
    v.description('Tessera extension: false once switched off (kept, but no longer accepted).'),
  ),
  createdUtc: dateTime('When it was made.'),
  updatedUtc: dateTime('Last change.'),
});

export function discountCodeView(
  event: Pick<EventRow, 'currency'>,
  row: DiscountCodeRow,
): v.InferOutput<typeof discountCodeSchema> {
  return {
    discountCodeId: row.id,
    eventId: row.event_id,
    code: row.code,
    percent: row.percent,
    amount: row.amount_minor === null ? null : toMajor(row.amount_minor, event.currency),
    currency: event.currency,
    maxUses: row.max_uses,
    used: row.used,
    validFromUtc: row.valid_from_utc,
    validUntilUtc: row.valid_until_utc,
    ticketTypeIds: JSON.parse(row.ticket_type_ids) as string[],
    active: row.active === 1,
    createdUtc: row.created_utc,
    updatedUtc: row.updated_utc,
  };
}
