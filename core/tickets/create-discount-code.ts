import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors, textOf } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { maxAmount, maxWhole, uuid } from '../platform/schemas';
import { parseInstant } from '../platform/time';
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
    percent: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(100),
        v.description('Percent off; give this or amount.'),
      ),
    ),
    amount: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(maxAmount),
        v.description('Off each ticket, VAT included.'),
      ),
    ),
    maxUses: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(maxWhole),
        v.description('Counted in tickets; absent: no limit.'),
      ),
    ),
    validFromUtc: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    validUntilUtc: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    ticketTypeIds: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.maxLength(100), v.description('Absent: all.')),
    ),
  }),
  output: discountCodeSchema,
  rules(input, errors) {
    if ((input.percent === undefined) === (input.amount === undefined))
      errors.add('percent', 'Give either percent or amount.');
    if (typeof input.amount === 'number' && input.amount <= 0)
      errors.add('amount', 'The amount must be more than 0.');
    const from = parseInstant(textOf(input.validFromUtc) ?? '');
    const until = parseInstant(textOf(input.validUntilUtc) ?? '');
    if (from && until && until <= from) errors.add('validUntilUtc', 'It must end after it starts.');
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const ticketTypeIds = [...new Set(input.ticketTypeIds ?? [])];
    if (ticketTypeIds.length > 0) {
      const found = await ctx.db
        .selectFrom('ticket_types')
        .select('id')
        .where('event_id', '=', event.id)
        .where('id', 'in', ticketTypeIds)
        .execute();
      const known = new Set(found.map((r) => r.id));
      ticketTypeIds.forEach((id, i) => {
        if (!known.has(id)) errors.add(`ticketTypeIds.${i}`, `${id} is not a ticket type of this event.`);
      });
    }
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
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db.insertInto('discount_codes').values(row).execute();
    return discountCodeView(event, row);
  },
});
