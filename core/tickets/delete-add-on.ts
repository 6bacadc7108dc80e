import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { addOnView } from './add-on-view';
import { rowsNamingAddOn } from './naming-rows';

export const deleteAddOn = defineOperation({
  name: 'deleteAddOn',
  title: 'Remove an add-on',
  description:
    'Removes an add-on no ticket ever had; refused (inUse, naming them) once sold, or while a ticket type bundles it or a door requires it. Needs tickets:write.',
  scope: 'tickets:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: heldRow('add_ons', (input) => input.addOnId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return addOnView(event, await loadEventRow(ctx, 'add_ons', event.id, input.addOnId, 'add-on'));
    },
  },
  activity: { resourceType: 'addOn', resourceId: (_input, removed) => removed.addOnId },
  input: v.object({ eventId: uuid('The event id.'), addOnId: uuid('The add-on id.') }),
  output: v.object({ addOnId: uuid('The add-on removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Its row first, held for removal by invoke (ifMatch.hold, FOR UPDATE): a sale taking places (the lock
    // they are taken under) and a ticket type or door naming it (held FOR KEY SHARE while it checks) are
    // waited for and counted below. A lock that only kept changes out missed the names being written.
    const addOn = await loadEventRow(ctx, 'add_ons', event.id, input.addOnId, 'add-on');
    const tickets = await ctx.db
      .selectFrom('attendee_add_ons')
      .select('attendee_id')
      .where('add_on_id', '=', addOn.id)
      .execute();
    const lines = await ctx.db
      .selectFrom('invoice_lines')
      .select('id')
      .where('add_on_id', '=', addOn.id)
      .execute();
    refuseWhileUsed(
      `The add-on ${addOn.name}`,
      [
        dependentsOf(
          'ticket',
          tickets.map((t) => t.attendee_id),
        ),
        dependentsOf(
          'invoiceLine',
          lines.map((l) => String(l.id)),
        ),
        ...(await rowsNamingAddOn(ctx, event.id, addOn.id)),
      ],
      'it stays for the tickets that have it; take it out of those ticket types and doors first otherwise.',
    );
    await deleteEventRow(ctx, 'add_ons', addOn.id, 'add-on');
    return { addOnId: addOn.id, deleted: true as const };
  },
});
