// The fields of a discount code, shared by creating and changing one, and the rules across them.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { heldEventIds } from '../platform/pipeline/load-event-row';
import { maxAmount, maxWhole } from '../platform/schemas';
import { parseInstant } from '../platform/time';

export const discountCodeFields = {
  percent: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(100),
    v.description('Percent off; give this or amount.'),
  ),
  amount: v.pipe(
    v.number(),
    v.minValue(0),
    v.maxValue(maxAmount),
    v.description('Off each ticket, VAT included.'),
  ),
  maxUses: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(maxWhole),
    v.description('Counted in tickets; absent: no limit.'),
  ),
  validFromUtc: v.pipe(v.string(), v.isoTimestamp()),
  validUntilUtc: v.pipe(v.string(), v.isoTimestamp()),
  ticketTypeIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.maxLength(100),
    v.description('Absent: all.'),
  ),
};

/** An amount off must be more than nothing, and a window must end after it starts. */
export function checkAmountAndWindow(
  amount: unknown,
  from: string | null | undefined,
  until: string | null | undefined,
  errors: FieldErrors,
): void {
  if (typeof amount === 'number' && amount <= 0) errors.add('amount', 'The amount must be more than 0.');
  const start = parseInstant(from ?? '');
  const end = parseInstant(until ?? '');
  if (start && end && end <= start) errors.add('validUntilUtc', 'It must end after it starts.');
}

/** Names each ticket type id that is not one of the event's; answers the ids without repeats. */
export async function checkTicketTypeIds(
  ctx: Ctx,
  eventId: string,
  sent: string[],
  errors: FieldErrors,
): Promise<string[]> {
  const ids = [...new Set(sent)];
  if (ids.length === 0) return ids;
  // Held while checked: a removal of one meanwhile waits and counts this code (heldEventIds).
  const known = await heldEventIds(ctx, 'ticket_types', eventId, ids);
  ids.forEach((id, i) => {
    if (!known.has(id)) errors.add(`ticketTypeIds.${i}`, `${id} is not a ticket type of this event.`);
  });
  return ids;
}
