import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadTicketType } from './load-ticket-type';
import { ticketTypeSchema, ticketTypeView } from './ticket-type-view';

export const getTicketType = defineOperation({
  name: 'getTicketType',
  title: 'Get a ticket type',
  description:
    'Returns one ticket type with price, VAT rate, capacity, places taken and left, sales window and visibility. Needs tickets:read.',
  scope: 'tickets:read',
  effect: 'read',
  problems: ['notFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), ticketTypeId: uuid('The ticket type id.') }),
  output: ticketTypeSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return ticketTypeView(event, await loadTicketType(ctx, event, input.ticketTypeId));
  },
});
