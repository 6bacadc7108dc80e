import * as v from 'valibot';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { fitsCurrency, toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { multiLine, oneLine, uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { nextSortOrder } from '../platform/storage/sort-order';
import { addOnSchema, addOnView } from './add-on-view';
import { placedFields, priceFields } from './new-priced-places';

export const createAddOn = defineOperation({
  name: 'createAddOn',
  title: 'Add an add-on',
  description:
    'Adds an add-on (an extra such as a workshop seat or a dinner) to an event. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'write',
  activity: {
    resourceType: 'addOn',
    resourceId: (_input, addOn) => addOn.addOnId,
    summary: (_input, addOn) => addOn.name,
  },
  idempotent: true,
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200)),
    description: v.optional(v.nullable(v.pipe(v.string(), multiLine, v.maxLength(2000)))),
    ...priceFields,
    ...placedFields,
  }),
  output: addOnSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const price = input.price ?? 0;
    const errors = new FieldErrors();
    if (!fitsCurrency(price, event.currency))
      errors.add('price', `${event.currency} prices have at most the currency's own decimals.`);
    errors.throwIfAny();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      description: input.description ?? null,
      price_minor: toMinor(price, event.currency),
      vat_rate: input.vatRate ?? 0,
      capacity: input.capacity ?? null,
      taken: 0,
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'add_ons', event.id)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('add_ons').values(row).execute();
    return addOnView(event, row);
  },
});
