import * as v from 'valibot';
import { ticketVisibilities, toFlag } from '../../db/values';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { fitsCurrency, toMinor } from '../platform/money';
import { loadEvent } from '../platform/pipeline/load-event';
import { heldEventIds } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { multiLine, oneLine, uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { nextSortOrder } from '../platform/storage/sort-order';
import { registrationsAboveFreeLimit } from '../sales';
import { placedFields, priceFields } from './new-priced-places';
import { resolveSalesWindow, salesWindowFields } from './sales-window';
import { ticketTypeSchema, ticketTypeView, waitingListField } from './ticket-type-view';

export const createTicketType = defineOperation({
  name: 'createTicketType',
  title: 'Add a ticket type',
  description:
    'Adds a ticket type so an event can take registrations. Price and VAT cannot be changed later. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'write',
  activity: {
    resourceType: 'ticketType',
    resourceId: (_input, type) => type.ticketTypeId,
    summary: (_input, type) => type.name,
  },
  idempotent: true,
  extension: true,
  problems: ['endsCommunity'],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200)),
    description: v.optional(v.pipe(v.string(), multiLine, v.maxLength(2000))),
    ...priceFields,
    ...placedFields,
    maxPerOrder: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description('Default 10.')),
    ),
    visibility: v.optional(
      v.pipe(
        v.picklist(ticketVisibilities),
        v.description('public (the default), code (needs the accessCode) or hidden (organiser only).'),
      ),
    ),
    accessCode: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_-]{3,40}$/),
        v.description('For visibility code; never shown again.'),
      ),
    ),
    requiresApproval: v.optional(v.pipe(v.boolean(), v.description('Orders wait for organiser approval.'))),
    crew: v.optional(v.pipe(v.boolean(), v.description('Left out of registered counts and sales pace.'))),
    waitingList: waitingListField,
    ...salesWindowFields,
    includedAddOnIds: v.optional(v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.maxLength(20))),
  }),
  output: ticketTypeSchema,
  rules(input, errors) {
    const code = input.visibility === 'code';
    if (code && input.accessCode === undefined)
      errors.add('accessCode', 'A code-only ticket type needs an accessCode.');
    if (!code && input.accessCode !== undefined)
      errors.add('accessCode', 'Only a ticket type with visibility code has an accessCode.');
    nameNotBlank(input, errors);
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    const price = input.price ?? 0;
    if (!fitsCurrency(price, event.currency))
      errors.add('price', `${event.currency} prices have at most the currency's own decimals.`);
    const window = resolveSalesWindow(input, event.time_zone, { start: null, end: null }, errors);
    const addOnIds = [...new Set(input.includedAddOnIds ?? [])];
    if (addOnIds.length > 0) {
      // Held while checked: a removal of one meanwhile waits and counts this type (heldEventIds).
      const found = await heldEventIds(ctx, 'add_ons', event.id, addOnIds);
      addOnIds.forEach((id, i) => {
        if (!found.has(id)) errors.add(`includedAddOnIds.${i}`, `${id} is not an add-on of this event.`);
      });
    }
    errors.throwIfAny();

    if (price > 0 && !input.crew) {
      const paid = await ctx.db
        .selectFrom('ticket_types')
        .select('id')
        .where('event_id', '=', event.id)
        .where('price_minor', '>', 0)
        .executeTakeFirst();
      const registered = paid ? null : await registrationsAboveFreeLimit(ctx, event.id);
      if (registered !== null) {
        throw problem(
          'endsCommunity',
          `This free event has ${registered} registrations, above the free limit; a paid ticket type would end its free community status.`,
        );
      }
    }

    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      description: input.description ?? '',
      price_minor: toMinor(price, event.currency),
      vat_rate: input.vatRate ?? 0,
      capacity: input.capacity ?? null,
      taken: 0,
      max_per_order: input.maxPerOrder ?? 10,
      visibility: input.visibility ?? 'public',
      access_code: input.accessCode ?? null,
      requires_approval: toFlag(input.requiresApproval ?? false),
      crew: toFlag(input.crew ?? false),
      sales_start_utc: window.start,
      sales_end_utc: window.end,
      included_add_on_ids: JSON.stringify(addOnIds),
      retired_utc: null,
      waiting_list: toFlag(input.waitingList ?? false),
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'ticket_types', event.id)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('ticket_types').values(row).execute();
    return ticketTypeView(event, row);
  },
});
