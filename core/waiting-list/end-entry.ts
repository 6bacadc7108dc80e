// An entry leaves the line (removed by the organiser, or its offer ran out): its status changes,
// its link stops working, and a place its offer held is given back, which offers it to the next
// in line (release-places.ts). Its row first, then its type's: the order an offer's end takes them.

import type { WaitingListEntryRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';
import { releasePlacesOf } from './release-places';

/** Ends the entry if it is still in line or offered; answers whether it did. */
export async function endEntry(
  ctx: Ctx,
  entry: Pick<WaitingListEntryRow, 'id' | 'ticket_type_id' | 'status'>,
  status: 'removed' | 'expired',
): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const done = await ctx.db
    .updateTable('waiting_list_entries')
    .set({ status, offer_token_hash: null, updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
    .where('id', '=', entry.id)
    .where('status', '=', entry.status)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  if (entry.status === 'offered')
    await releasePlacesOf(ctx, { ticketTypes: new Map([[entry.ticket_type_id, 1]]), addOns: new Map() });
  return true;
}
