// Places: taken counts change only together with their capacity check, in one conditional update,
// so concurrent registrations can never oversell (the row update is the tickets' lock).
import { sql } from 'kysely';
import { prepare } from '../../db/prepared';
import { changeSeqInPrepared, nextChangeSeq, preparedChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';

/** What has places: ticket types and add-ons keep a capacity (null: no limit) and a taken count. */
type WithPlaces = 'ticket_types' | 'add_ons';

/**
 * Takes n places of a ticket type or an add-on: `full` when they are not there, `gone` when the row
 * is not (on PostgreSQL a removal may commit between the caller's read of it and this update, which
 * then waits for it and finds nothing), so the caller answers as for a row it never had.
 */
export async function takePlaces(
  ctx: Ctx,
  table: WithPlaces,
  id: string,
  n: number,
): Promise<'taken' | 'full' | 'gone'> {
  const taken = await takeFrom[table].changed(ctx.db, {
    id,
    n,
    now: ctx.clock.now().toISOString(),
    seq: await preparedChangeSeq(ctx.db),
  });
  if (taken === 1) return 'taken';
  const there = await ctx.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  return there ? 'full' : 'gone';
}

/** The conditional update of each table with places, built once (a registration's hot statement). */
function prepareTake(table: WithPlaces) {
  return prepare<{ id: string; n: number; now: string; seq: number }>((db, p) => {
    let update = db
      .updateTable(table)
      .set({ taken: sql`taken + ${p.n}`, updated_utc: p.now, change_seq: changeSeqInPrepared(db, p.seq) })
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('capacity', 'is', null), eb(sql`taken + ${p.n}`, '<=', eb.ref('capacity'))]));
    // A ticket type retired meanwhile takes no more places (add-ons are never retired).
    if (table === 'ticket_types') update = update.where(sql`retired_utc`, 'is', null);
    return update;
  });
}

const takeFrom = { ticket_types: prepareTake('ticket_types'), add_ons: prepareTake('add_ons') };

/**
 * Gives places back (cancelled tickets), n per ticket type and add-on id: ticket types then
 * add-ons, each in the order of their ids, as a registration takes them, so the two never hold
 * each other's rows in a circle. Only the counts: a freed place goes to the waiting list first, so
 * every other caller gives places back through core/waiting-list's releasePlacesOf.
 */
export async function givePlacesBack(
  ctx: Ctx,
  freed: { ticketTypes: Map<string, number>; addOns: Map<string, number> },
): Promise<void> {
  const byId = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : 1);
  for (const [id, n] of [...freed.ticketTypes].sort(byId)) await releaseOne(ctx, 'ticket_types', id, n);
  for (const [id, n] of [...freed.addOns].sort(byId)) await releaseOne(ctx, 'add_ons', id, n);
}

/**
 * n places back. A count lower than n means the counts and the tickets disagree: the count
 * stays at zero (the schema refuses a negative one) and the inconsistency is logged, not hidden.
 */
async function releaseOne(ctx: Ctx, table: WithPlaces, id: string, n: number): Promise<void> {
  const change = async () => ({
    updated_utc: ctx.clock.now().toISOString(),
    change_seq: await nextChangeSeq(ctx.db),
  });
  const result = await ctx.db
    .updateTable(table)
    .set({ taken: sql`taken - ${n}`, ...(await change()) })
    .where('id', '=', id)
    .where('taken', '>=', n)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    await ctx.db
      .updateTable(table)
      .set({ taken: 0, ...(await change()) })
      .where('id', '=', id)
      .execute();
    ctx.services.log.warn(
      { table, id, workspaceId: ctx.actor.workspaceId },
      'a place was given back where none was taken: the taken count and the tickets disagree',
    );
  }
}

/** Places left of a limited capacity; null without a limit. */
export function placesLeft(capacity: number | null, taken: number): number | null {
  return capacity === null ? null : Math.max(0, capacity - taken);
}

/** Places in all the given ticket types; null when any is unlimited (or there are none). */
export function totalCapacity(types: { capacity: number | null }[]): number | null {
  if (types.length === 0 || types.some((t) => t.capacity === null)) return null;
  return types.reduce((n, t) => n + (t.capacity ?? 0), 0);
}
