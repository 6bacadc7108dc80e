// One entry of an event's waiting list, read (or locked, for a change: its row before its type's,
// as an offer's end takes them), or 404 notFound.
import { lockingRow } from '../../db/dialect';
import type { WaitingListEntryRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { placesInLine, type WaitingEntryView, waitingEntryView } from './entry-view';

export async function loadEntry(
  ctx: Ctx,
  eventId: string,
  entryId: string,
  lock = false,
): Promise<WaitingListEntryRow> {
  const query = ctx.db
    .selectFrom('waiting_list_entries')
    .selectAll()
    .where('id', '=', entryId)
    .where('event_id', '=', eventId);
  const row = await (lock ? lockingRow(ctx.db, query) : query).executeTakeFirst();
  if (!row) throw problem('notFound', `No waiting-list entry ${entryId} in this event.`);
  return row;
}

/** The entry as it is now, with its place in line. */
export async function entryAnswer(ctx: Ctx, eventId: string, entryId: string): Promise<WaitingEntryView> {
  const row = await loadEntry(ctx, eventId, entryId);
  const places = await placesInLine(ctx, [row]);
  return waitingEntryView(ctx, row, places.get(row.id) ?? null);
}
