// Fields and rules shared by adding and changing a door: what it admits must be the event's own
// ticket types and add-ons, and one door at most is the event's main entrance.
import * as v from 'valibot';
import { transactionLock } from '../../db/dialect';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { heldEventIds } from '../platform/pipeline/load-event-row';
import { oneLine, sortOrderInput, uuid } from '../platform/schemas';

export const doorFields = {
  name: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(100),
    v.description('What the steward sees.'),
  ),
  main: v.pipe(
    v.boolean(),
    v.description(
      'Entrances only: make it the main entrance, the default door where firstCheckInUtc is taken.',
    ),
  ),
  capacity: v.nullable(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(2_147_483_647),
      v.description('Inside at once; null: no limit.'),
    ),
  ),
  reentry: v.pipe(v.boolean(), v.description('Re-entry after going out. Default true.')),
  ticketTypeIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.maxLength(100),
    v.description('Ticket types admitted; empty: all.'),
  ),
  addOnIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.maxLength(100),
    v.description('The attendee needs one of these; empty: none.'),
  ),
  sortOrder: sortOrderInput,
  sessionId: uuid('For a session door: its session.'),
};

/** Reports ticket types and add-ons that are not the event's own. */
export async function checkAdmits(
  ctx: Ctx,
  eventId: string,
  admits: { ticketTypeIds?: string[]; addOnIds?: string[] },
  errors: FieldErrors,
): Promise<void> {
  for (const [field, table, what] of [
    ['ticketTypeIds', 'ticket_types', 'ticket type'],
    ['addOnIds', 'add_ons', 'add-on'],
  ] as const) {
    const ids = admits[field] ?? [];
    if (ids.length === 0) continue;
    // Held while checked: a removal of one meanwhile waits and counts this door (heldEventIds).
    const found = await heldEventIds(ctx, table, eventId, ids);
    ids.forEach((id, i) => {
      if (!found.has(id))
        errors.add(`${field}.${i}`, `${id} is not a${what === 'add-on' ? 'n' : ''} ${what} of this event.`);
    });
  }
}

/**
 * Holds the event's main-entrance mark until the transaction ends (PostgreSQL's advisory lock; on
 * SQLite the transaction writes alone): taken before deciding which door has the mark, so two
 * doors made the main one at once, or an event's first two entrances, take it one after the other
 * and the second sees the first's (without it, the second met the unique index: a 500).
 */
export async function holdMainEntrance(ctx: Ctx, eventId: string): Promise<void> {
  await transactionLock(ctx.db, `main entrance ${eventId}`);
}

/** Takes the main-entrance mark, held (holdMainEntrance), from whichever door of the event has it. */
export async function releaseMainEntrance(ctx: Ctx, eventId: string): Promise<void> {
  await holdMainEntrance(ctx, eventId);
  await ctx.db
    .updateTable('doors')
    .set({ main: 0 })
    .where('event_id', '=', eventId)
    .where('main', '=', 1)
    .execute();
}
