import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { toFlag } from '../../db/values';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { multiLine, oneLine, uuid } from '../platform/schemas';
import { offerWaitingPlaces } from '../waiting-list';
import { loadTicketType } from './load-ticket-type';
import { resolveSalesWindow, salesWindowFields } from './sales-window';
import { ticketTypeSchema, ticketTypeView, waitingListField } from './ticket-type-view';

const unchangeable = (what: string) =>
  v.optional(v.custom<never>(() => false, `${what} cannot be changed through the API.`));

export const updateTicketType = defineOperation({
  name: 'updateTicketType',
  title: 'Change a ticket type',
  description:
    'Changes a ticket type; price and VAT cannot be changed, nor capacity set below places taken. retired true stops its sales and takes it off the public page; false brings it back. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'write',
  repeatable: true,
  problems: ['notFound', 'capacityBelowTaken'],
  etag: true,
  ifMatch: {
    hold: heldRow('ticket_types', (input) => input.ticketTypeId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return ticketTypeView(event, await loadTicketType(ctx, event, input.ticketTypeId));
    },
  },
  activity: { resourceType: 'ticketType', resourceId: (_input, type) => type.ticketTypeId },
  input: v.object({
    eventId: uuid('The event id.'),
    ticketTypeId: uuid('The ticket type id.'),
    name: v.optional(v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200))),
    description: v.optional(
      v.nullable(v.pipe(v.string(), multiLine, v.maxLength(2000), v.description('Null clears it.'))),
    ),
    capacity: v.optional(
      v.nullable(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.maxValue(2_147_483_647),
          v.description('Null: no limit.'),
        ),
      ),
    ),
    maxPerOrder: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    ...salesWindowFields,
    retired: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'Tessera extension: true retires it (no new tickets, off the public page, kept for the tickets sold); false puts it back on sale.',
        ),
      ),
    ),
    waitingList: waitingListField,
    price: unchangeable('The price'),
    vatRate: unchangeable('The VAT rate'),
  }),
  output: ticketTypeSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const current = await loadTicketType(ctx, event, input.ticketTypeId);

    const errors = new FieldErrors();
    const window = resolveSalesWindow(
      input,
      event.time_zone,
      {
        start: current.sales_start_utc,
        end: current.sales_end_utc,
      },
      errors,
    );
    errors.throwIfAny();

    const now = ctx.clock.now().toISOString();
    const changes = {
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : (input.description ?? ''),
      max_per_order: input.maxPerOrder ?? current.max_per_order,
      sales_start_utc: window.start,
      sales_end_utc: window.end,
      capacity: input.capacity === undefined ? current.capacity : input.capacity,
      retired_utc:
        input.retired === undefined
          ? current.retired_utc
          : input.retired
            ? (current.retired_utc ?? now)
            : null,
      waiting_list: input.waitingList === undefined ? current.waiting_list : toFlag(input.waitingList),
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    // The capacity is set under the tickets' lock: the row update itself checks it against
    // taken, so no registration can slip in between the check and the change.
    const capacity = changes.capacity;
    const changed = await updateEventRow(ctx, 'ticket_types', current.id, 'ticket type', changes, {
      onlyIf: typeof capacity === 'number' ? (update) => update.where('taken', '<=', capacity) : undefined,
    });
    if (!changed) {
      const { taken } = await loadTicketType(ctx, event, current.id);
      throw problem('capacityBelowTaken', `The capacity cannot be below the ${taken} places already taken.`, {
        taken,
      });
    }
    // Places a raised capacity (or a list switched on, a type put back on sale) frees go to its waiting list first.
    await offerWaitingPlaces(ctx, current.id);
    return ticketTypeView(event, await loadTicketType(ctx, event, current.id));
  },
});
