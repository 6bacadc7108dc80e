import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { FieldErrors } from '../platform/field-errors';
import { toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkAmountAndWindow, checkTicketTypeIds, discountCodeFields } from './discount-code-fields';
import { discountCodeSchema, discountCodeView } from './discount-code-view';
import { loadDiscountCode } from './load-discount-code';

const instant = (value: string | null) => (value === null ? null : new Date(value).toISOString());

export const updateDiscountCode = defineOperation({
  name: 'updateDiscountCode',
  title: 'Change a discount code',
  description:
    'Changes a discount code: percent or amount, maxUses (not below uses; null: none), validity, ticket types, active (false switches it off, true on). The letters stay. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('discount_codes', (input) => input.discountCodeId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return discountCodeView(event, await loadDiscountCode(ctx, event.id, input.discountCodeId));
    },
  },
  activity: { resourceType: 'discountCode', resourceId: (_input, code) => code.discountCodeId },
  input: v.object({
    eventId: uuid('The event id.'),
    discountCodeId: uuid('The discount code id.'),
    percent: v.optional(discountCodeFields.percent),
    amount: v.optional(discountCodeFields.amount),
    maxUses: v.optional(v.nullable(discountCodeFields.maxUses)),
    validFromUtc: v.optional(v.nullable(discountCodeFields.validFromUtc)),
    validUntilUtc: v.optional(v.nullable(discountCodeFields.validUntilUtc)),
    ticketTypeIds: v.optional(discountCodeFields.ticketTypeIds),
    active: v.optional(v.pipe(v.boolean(), v.description('false switches the code off; true on again.'))),
  }),
  output: discountCodeSchema,
  rules(input, errors) {
    if (input.percent !== undefined && input.amount !== undefined)
      errors.add('percent', 'Give either percent or amount, not both.');
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): checked against its validity and uses as they stand.
    const code = await loadDiscountCode(ctx, event.id, input.discountCodeId);
    const errors = new FieldErrors();
    const from = input.validFromUtc === undefined ? code.valid_from_utc : instant(input.validFromUtc);
    const until = input.validUntilUtc === undefined ? code.valid_until_utc : instant(input.validUntilUtc);
    checkAmountAndWindow(input.amount, from, until, errors);
    const maxUses = input.maxUses === undefined ? code.max_uses : input.maxUses;
    if (maxUses !== null && maxUses < code.used)
      errors.add(
        'maxUses',
        `It was used ${code.used} times already; give at least that, or null for no limit.`,
      );
    const ticketTypeIds =
      input.ticketTypeIds === undefined
        ? code.ticket_type_ids
        : JSON.stringify(await checkTicketTypeIds(ctx, event.id, input.ticketTypeIds, errors));
    errors.throwIfAny();

    const offChanged = input.percent !== undefined || input.amount !== undefined;
    const next = {
      ...code,
      percent: offChanged ? (input.percent ?? null) : code.percent,
      amount_minor: offChanged
        ? input.amount === undefined
          ? null
          : toMinor(input.amount, event.currency)
        : code.amount_minor,
      max_uses: maxUses,
      valid_from_utc: from,
      valid_until_utc: until,
      ticket_type_ids: ticketTypeIds,
      active: input.active === undefined ? code.active : toFlag(input.active),
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'discount_codes', code.id, 'discount code', next);
    return discountCodeView(event, next);
  },
});
