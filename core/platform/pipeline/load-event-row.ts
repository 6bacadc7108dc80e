// A row that belongs to an event (a room, a track, a ticket type, ...), found only at that event:
// another event's or workspace's id answers 404 notFound as if it did not exist.
import type { Selectable } from 'kysely';
import type { Database } from '../../../db/schema';
import type { Ctx } from '../context';
import { problem } from '../problems';

type EventRowTable = 'ticket_types' | 'add_ons' | 'sessions' | 'rooms' | 'tracks' | 'speakers';

export async function loadEventRow<T extends EventRowTable>(
  ctx: Ctx,
  table: T,
  eventId: string,
  id: string,
  what: string,
): Promise<Selectable<Database[T]>> {
  const row = await ctx.db
    .selectFrom(table as EventRowTable)
    .selectAll()
    .where('id', '=', id)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No ${what} ${id} at this event.`);
  return row as Selectable<Database[T]>;
}
