import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { loadTicketType } from './load-ticket-type';
import { rowsNamingTicketType } from './naming-rows';
import { ticketTypeView } from './ticket-type-view';

export const deleteTicketType = defineOperation({
  name: 'deleteTicketType',
  title: 'Remove a ticket type',
  description:
    'Removes a ticket type nothing was issued of; with tickets (even cancelled), or doors, codes or questions limited to it, refused (inUse). Retire a sold one with update_ticket_type retired true. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: heldRow('ticket_types', (input) => input.ticketTypeId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return ticketTypeView(event, await loadTicketType(ctx, event, input.ticketTypeId));
    },
  },
  activity: { resourceType: 'ticketType', resourceId: (_input, removed) => removed.ticketTypeId },
  input: v.object({ eventId: uuid('The event id.'), ticketTypeId: uuid('The ticket type id.') }),
  output: v.object({ ticketTypeId: uuid('The ticket type removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Its row first, held for removal by invoke (ifMatch.hold, FOR UPDATE): a registration taking places
    // (the lock they are taken under) and a door, code or question naming it (held FOR KEY SHARE while it
    // checks) are waited for and counted below. A lock that only kept changes out missed the names being
    // written.
    const type = await loadTicketType(ctx, event, input.ticketTypeId);
    const ids = async (table: 'attendees' | 'invoice_lines') =>
      (await ctx.db.selectFrom(table).select('id').where('ticket_type_id', '=', type.id).execute()).map((r) =>
        String(r.id),
      );
    refuseWhileUsed(
      `The ticket type ${type.name}`,
      [
        dependentsOf('ticket', await ids('attendees')),
        dependentsOf('invoiceLine', await ids('invoice_lines')),
        ...(await rowsNamingTicketType(ctx, event.id, type.id)),
      ],
      'retire it with retired true (tickets issued), or change those doors, codes or questions first.',
    );
    await deleteEventRow(ctx, 'ticket_types', type.id, 'ticket type');
    return { ticketTypeId: type.id, deleted: true as const };
  },
});
