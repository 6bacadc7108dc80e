import type { EventRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';

export async function loadTicketType(ctx: Ctx, event: EventRow, ticketTypeId: string) {
  const row = await ctx.db
    .selectFrom('ticket_types')
    .selectAll()
    .where('id', '=', ticketTypeId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No ticket type ${ticketTypeId} at this event.`);
  return row;
}
