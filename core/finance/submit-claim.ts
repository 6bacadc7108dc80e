import * as v from 'valibot';
import { resolveWhoFor, whoForFields } from '../logistics';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { fitsCurrency, isCurrency, toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { maxAmount, oneLine, uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { claimSubmitted } from './claim-messages';
import { claimNow, loadClaim } from './claim-rows';
import { claimSchema } from './claim-view';

const { attendeeId: _attendee, ...whoFields } = whoForFields;

export const submitClaim = defineOperation({
  name: 'submitClaim',
  title: 'Submit an expense claim',
  description:
    "Submits an expense claim of a speaker or crew member (speakerId, crewMemberId: names and email copied unless given) or someone named: category, amount in the currency's decimals, currency; claim.submitted is sent. Needs finance:write.",
  scope: 'finance:write',
  effect: 'write',
  extension: true,
  module: 'budget',
  idempotent: true,
  etag: true,
  problems: [],
  activity: { resourceType: 'expenseClaim', resourceId: (_input, claim) => claim.claimId },
  input: v.object({
    eventId: uuid('The event id.'),
    ...whoFields,
    category: v.pipe(
      v.string(),
      oneLine,
      v.minLength(1),
      v.maxLength(100),
      v.description('What it is for: travel, hotel, meals, ...'),
    ),
    amount: v.pipe(
      v.number(),
      v.gtValue(0),
      v.maxValue(maxAmount),
      v.description("Amount claimed, in the currency's own decimals (12.50 EUR, 1500 JPY)."),
    ),
    currency: v.pipe(v.string(), oneLine, v.description('ISO 4217 currency, such as EUR.')),
  }),
  output: claimSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const { attendee_id: _none, ...who } = await resolveWhoFor(ctx, event.id, input, errors, false);
    if (input.category.trim() === '') errors.add('category', 'The category cannot be blank.');
    if (!isCurrency(input.currency)) errors.add('currency', 'Not an ISO 4217 currency code such as EUR.');
    else if (!fitsCurrency(input.amount, input.currency))
      errors.add('amount', `More decimals than ${input.currency} has.`);
    errors.throwIfAny();
    const stamp = await madeNow(ctx);
    const id = newId();
    await ctx.db
      .insertInto('expense_claims')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        ...who,
        erased: 0,
        category: input.category.trim(),
        amount_minor: toMinor(input.amount, input.currency),
        currency: input.currency,
        status: 'submitted',
        submitted_utc: stamp.created_utc,
        approved_utc: null,
        paid_utc: null,
        ...stamp,
      })
      .execute();
    await claimSubmitted.emit(ctx, { event, claim: await loadClaim(ctx, event.id, id) });
    return claimNow(ctx, event.id, id);
  },
});
