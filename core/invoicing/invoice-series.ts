// The event's series of invoices and credit notes: each document takes the next place from the
// event's counter row in one atomic statement, inside the transaction that writes the document.
// PostgreSQL locks the row until that transaction ends, so concurrent payments queue on it and a
// rolled-back one gives its place back; SQLite has one writer. Never max() + 1 read then written.
import { sql } from 'kysely';
import type { Ctx } from '../platform/context';

/** Takes the next place in the event's series. */
export async function takeSeriesPlace(ctx: Ctx, eventId: string): Promise<number> {
  const row = await ctx.db
    .insertInto('invoice_series')
    .values({
      event_id: eventId,
      // A series begun before the counter existed (imported documents) goes on after its last place.
      last_no: sql<number>`(select coalesce(max(series_no), 0) + 1 from invoices where event_id = ${eventId})`,
    })
    .onConflict((oc) => oc.column('event_id').doUpdateSet({ last_no: sql`invoice_series.last_no + 1` }))
    .returning('last_no')
    .executeTakeFirstOrThrow();
  return Number(row.last_no);
}

/** The printed number: the prefix and the place, at least four digits. */
export function documentNumber(prefix: string, place: number): string {
  return `${prefix}${String(place).padStart(4, '0')}`;
}
