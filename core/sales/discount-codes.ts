// Discount codes in use: the code a buyer or organiser gives with an order, found without regard to
// case, checked (switched on, within its window, for the order's ticket types), what it takes off a
// ticket's price, and its uses (counted in tickets, as `used` shows) taken with their limit in one
// conditional update, so two orders at once can never use a code more often than it allows, and
// given back when its tickets are cancelled. The code's row comes before the places' rows in every
// writer's lock order (docs/lock-order.md).
import { sql } from 'kysely';
import type { DiscountCodeRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

/** Letters a code may have at most: longer text is no code of any event. */
const longestCode = 100;

/** The event's code with these letters, usable now; refused registrationRefused, reason saying why. */
export async function usableDiscountCode(
  ctx: Ctx,
  eventId: string,
  letters: string,
): Promise<DiscountCodeRow> {
  const key = letters.trim().toUpperCase();
  const code =
    key.length === 0 || key.length > longestCode
      ? undefined
      : await ctx.db
          .selectFrom('discount_codes')
          .selectAll()
          .where('event_id', '=', eventId)
          .where('code_key', '=', key)
          .executeTakeFirst();
  if (!code)
    throw refused('discountCodeUnknown', `There is no discount code ${letters.trim()} for this event.`);
  if (code.active !== 1) throw refused('discountCodeOff', `The discount code ${code.code} is switched off.`);
  const now = ctx.clock.now().toISOString();
  if (code.valid_from_utc !== null && now < code.valid_from_utc)
    throw refused(
      'discountCodeNotYetValid',
      `The discount code ${code.code} is valid from ${code.valid_from_utc}.`,
    );
  if (code.valid_until_utc !== null && now >= code.valid_until_utc)
    throw refused(
      'discountCodeExpired',
      `The discount code ${code.code} was valid until ${code.valid_until_utc}.`,
    );
  return code;
}

/** Whether the code takes something off tickets of this type. */
export function codeAppliesTo(code: DiscountCodeRow, ticketTypeId: string): boolean {
  const types = JSON.parse(code.ticket_type_ids) as string[];
  return types.length === 0 || types.includes(ticketTypeId);
}

/**
 * A ticket's price with the code taken off, in minor units, VAT included: a percentage rounded to the
 * currency's minor unit, an amount off each ticket; never below 0.
 */
export function discountedPrice(code: DiscountCodeRow, priceMinor: number): number {
  if (code.percent !== null) return priceMinor - Math.round((priceMinor * code.percent) / 100);
  return Math.max(0, priceMinor - (code.amount_minor ?? 0));
}

/** Takes `tickets` uses of the code within its limit; refused discountCodeUsedUp when they are not left. */
export async function takeCodeUses(ctx: Ctx, code: DiscountCodeRow, tickets: number): Promise<void> {
  const taken = await ctx.db
    .updateTable('discount_codes')
    .set({
      used: sql`used + ${tickets}`,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', code.id)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb(sql`used + ${tickets}`, '<=', eb.ref('max_uses'))]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return;
  const left = await ctx.db
    .selectFrom('discount_codes')
    .select(['used', 'max_uses'])
    .where('id', '=', code.id)
    .executeTakeFirst();
  const uses = left?.max_uses === null || !left ? 0 : Math.max(0, left.max_uses - left.used);
  throw refused(
    'discountCodeUsedUp',
    uses === 0
      ? `The discount code ${code.code} has been used as often as it may be.`
      : `The discount code ${code.code} may be used for ${uses} more ticket(s), not ${tickets}.`,
  );
}

/** Gives back uses of a code whose tickets were cancelled (never below 0). */
export async function releaseCodeUses(ctx: Ctx, codeId: string, tickets: number): Promise<void> {
  await ctx.db
    .updateTable('discount_codes')
    .set({
      used: sql`case when used >= ${tickets} then used - ${tickets} else 0 end`,
      updated_utc: ctx.clock.now().toISOString(),
      change_seq: await nextChangeSeq(ctx.db),
    })
    .where('id', '=', codeId)
    .execute();
}

function refused(reason: string, detail: string) {
  return problem('registrationRefused', detail, { reason });
}
