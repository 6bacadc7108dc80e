import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors, textOf } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { checkAmountAndWindow, checkTicketTypeIds, discountCodeFields } from './discount-code-fields';
import { discountCodeSchema, discountCodeView } from './discount-code-view';

export const createDiscountCode = defineOperation({
  name: 'createDiscountCode',
  title: 'Create a discount code',
  description:
    'Creates a discount code taking a percent or an amount off each ticket, optionally limited in uses, time and ticket types. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'write',
  problems: ['codeTaken'],
  idempotent: true,
  activity: {
    resourceType: 'discountCode',
    resourceId: (_input, code) => code.discountCodeId,
    summary: (input) => input.code,
  },
  // The unique index on (event, letters) decides, so two creates at once cannot both win.
  unique: {
    'discount_codes.event_id, discount_codes.code_key': {
      code: 'codeTaken',
      detail: (input) => `A discount code ${input.code} already exists at this event.`,
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    code: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]{3,40}$/),
      v.description('Letters, digits, - or _; case ignored.'),
    ),
    percent: v.optional(discountCodeFields.percent),
    amount: v.optional(discountCodeFields.amount),
    maxUses: v.optional(discountCodeFields.maxUses),
    validFromUtc: v.optional(discountCodeFields.validFromUtc),
    validUntilUtc: v.optional(discountCodeFields.validUntilUtc),
    ticketTypeIds: v.optional(discountCodeFields.ticketTypeIds),
  }),
  output: discountCodeSchema,
  rules(input, errors) {
    if ((input.percent === undefined) === (input.amount === undefined))
      errors.add('percent', 'Give either percent or amount.');
    checkAmountAndWindow(input.amount, textOf(input.validFromUtc), textOf(input.validUntilUtc), errors);
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const ticketTypeIds = await checkTicketTypeIds(ctx, event.id, input.ticketTypeIds ?? [], errors);
    errors.throwIfAny();

    const codeKey = input.code.toUpperCase();
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      code: input.code,
      code_key: codeKey,
      percent: input.percent ?? null,
      amount_minor: input.amount === undefined ? null : toMinor(input.amount, event.currency),
      max_uses: input.maxUses ?? null,
      used: 0,
      valid_from_utc: input.validFromUtc ? new Date(input.validFromUtc).toISOString() : null,
      valid_until_utc: input.validUntilUtc ? new Date(input.validUntilUtc).toISOString() : null,
      ticket_type_ids: JSON.stringify(ticketTypeIds),
      active: 1 as const,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db.insertInto('discount_codes').values(row).execute();
    return discountCodeView(event, row);
  },
});
