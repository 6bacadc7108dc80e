import * as v from 'valibot';
import { lockingRow } from '../../db/dialect';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { detail, mention } from '../platform/mentions';
import { changingOwnEvent, eventNotFound, loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { eventView } from './event-view';
import { setEventStatus } from './set-event-status';

export const deleteEvent = defineOperation({
  name: 'deleteEvent',
  title: 'Remove a draft event',
  description:
    'Removes a draft event without orders, with all its setup, in one step. Published: refused (eventPublished; return it to draft first). With orders or passes: refused (inUse, naming them). Needs events:write.',
  scope: 'events:write',
  effect: 'destructive',
  changesEvent: true,
  repeatable: true,
  extension: true,
  problems: ['eventNotFound', 'eventPublished', 'inUse'],
  ifMatch: {
    hold: heldRow('events', (input) => input.eventId),
    current: async (ctx, input) => eventView(ctx, await loadEvent(ctx, input.eventId)),
  },
  activity: { resourceType: 'event', resourceId: (_input, removed) => removed.eventId },
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.object({ eventId: uuid('The event removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Its row first, locked for removal (db/dialect.ts lockingRow): a publish, or an order being
    // placed (its foreign key holds the row until it commits), is waited for and seen below. A lock
    // that only kept changes out let the order commit between the count and the delete, which then
    // took it with the event. A registration holding a ticket type may meet this in the other order:
    // PostgreSQL ends one of the two, and the write queue runs it again whole.
    changingOwnEvent(ctx, event.id);
    const now = await lockingRow(
      ctx.db,
      ctx.db.selectFrom('events').select('status').where('id', '=', event.id),
    ).executeTakeFirst();
    // Another removal got there first (PostgreSQL: the touch above waited for it, then found nothing).
    if (!now) throw eventNotFound(event.id);
    if (now.status !== 'draft')
      throw problem(
        'eventPublished',
        detail`${event.name} is published; return it to draft with ${mention(setEventStatus)} first.`,
      );
    const orders = await ctx.db.selectFrom('orders').select('id').where('event_id', '=', event.id).execute();
    const passesSold = await ctx.db
      .selectFrom('passes')
      .select('id')
      .where('sales_event_id', '=', event.id)
      .execute();
    const passesValid = await ctx.db
      .selectFrom('pass_events')
      .select('pass_id')
      .where('event_id', '=', event.id)
      .execute();
    refuseWhileUsed(
      `The event ${event.name}`,
      [
        dependentsOf(
          'order',
          orders.map((o) => o.id),
        ),
        dependentsOf('pass', [
          ...new Set([...passesSold.map((p) => p.id), ...passesValid.map((p) => p.pass_id)]),
        ]),
      ],
      'an event people bought tickets or passes for stays; cancel or leave it in draft instead.',
    );
    // Every setup row belongs to the event and goes with it (foreign keys cascade, in this transaction).
    const removed = await ctx.db.deleteFrom('events').where('id', '=', event.id).executeTakeFirst();
    // Removed by another call since the read above: answered as a moment later.
    if (removed.numDeletedRows === 0n) throw eventNotFound(event.id);
    return { eventId: event.id, deleted: true as const };
  },
});
