// An erasure writes a person's tickets before their orders (personal-resources.ts: rows about a
// ticket are found by it, so the attendees come first), while every write to an order takes the
// order before its tickets (core/attendees/cancel-tickets.ts, touch-order.ts). Beside a cancellation
// or a payment of their order, an erasure met it in a circle on PostgreSQL; so it locks the orders it
// will erase first, in id order, as a change of each would (db/dialect.ts changingRow).
import { changingRow, isPostgres, referencedRow } from '../../db/dialect';
import { runAgain } from '../../db/errors';
import type { Ctx } from '../platform/context';

/**
 * Holds every event of the workspace (FOR KEY SHARE on PostgreSQL, in id order), as a write holds
 * its event before its rows (core/platform/pipeline/load-event.ts): the person's rows may be at any
 * of them, and a draft event's removal locks the event, then its rows as they cascade. Without it
 * the two met in a circle (a submission's speaker erased, then a crew member the removal had taken).
 */
export async function holdWorkspaceEvents(ctx: Ctx): Promise<void> {
  if (!isPostgres(ctx.db)) return;
  const events = ctx.db
    .selectFrom('events')
    .select('id')
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .orderBy('id');
  await referencedRow(ctx.db, events).execute();
}

const ordersOf = (ctx: Ctx, email: string) =>
  ctx.db
    .selectFrom('orders')
    .select('id')
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .where('buyer_email', '=', email)
    .orderBy('id');

/** Locks the orders the person bought, in id order; answers their ids. No order, no lock taken. */
export async function lockOrdersOf(ctx: Ctx, email: string): Promise<string[]> {
  if (!(await ordersOf(ctx, email).executeTakeFirst())) return [];
  return (await changingRow(ctx.db, ordersOf(ctx, email)).execute()).map((r) => r.id);
}

/**
 * After their tickets: an order they placed since the first lock was not locked before them, and a
 * write to it may be waiting for one of those tickets. The transaction runs again whole (the write
 * queue's retry) and locks it first. One writer (SQLite) never sees that.
 */
export async function refuseOrdersPlacedSince(ctx: Ctx, email: string, locked: string[]): Promise<void> {
  const placed = (await ordersOf(ctx, email).execute()).find((r) => !locked.includes(r.id));
  if (placed) throw runAgain(`order ${placed.id} was placed after the erasure locked its buyer's orders`);
}
