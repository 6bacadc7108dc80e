import * as v from 'valibot';
import { lockingRow } from '../../db/dialect';
import { toFlag } from '../../db/values';
import type { Ctx } from '../platform/context';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkAdmits, doorFields, releaseMainEntrance } from './door-input';
import { foldSlotsIntoDoor, insideDoor } from './door-inside';
import { doorTag } from './door-tag';
import { doorSchema, doorView } from './door-view';
import { loadDoor } from './load-door';

export const updateDoor = defineOperation({
  name: 'updateDoor',
  title: 'Change a door',
  description: 'Changes a door; its kind and session stay. Needs events:write.',
  scope: 'events:write',
  effect: 'write',
  activity: { resourceType: 'door', resourceId: (_input, door) => door.doorId },
  repeatable: true,
  extension: true,
  module: 'checkin',
  doors: true,
  problems: ['noDoor', 'capacityBelowTaken'],
  etag: true,
  ifMatch: doorTag,
  input: v.object({
    eventId: uuid('The event id.'),
    doorId: uuid('The door id.'),
    name: v.optional(doorFields.name),
    main: v.optional(doorFields.main),
    capacity: v.optional(doorFields.capacity),
    reentry: v.optional(doorFields.reentry),
    ticketTypeIds: v.optional(doorFields.ticketTypeIds),
    addOnIds: v.optional(doorFields.addOnIds),
    sortOrder: v.optional(doorFields.sortOrder),
  }),
  output: doorSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): a change of another field writes the row back
    // from its read, so it must not write over a main-entrance mark another change took meanwhile.
    const door = await loadDoor(ctx, event.id, input.doorId);
    if (input.capacity != null) await countOnTheRow(ctx, door.id);
    const errors = new FieldErrors();
    if (input.main === true && door.kind !== 'entrance')
      errors.add('main', 'Only an entrance can be the main entrance.');
    await checkAdmits(ctx, event.id, input, errors);
    errors.throwIfAny();

    if (input.main === true && door.main === 0) await releaseMainEntrance(ctx, event.id);
    const capacity = input.capacity === undefined ? door.capacity : input.capacity;
    const changes = {
      name: input.name?.trim() ?? door.name,
      main: input.main === undefined ? door.main : toFlag(input.main),
      capacity,
      reentry: input.reentry === undefined ? door.reentry : toFlag(input.reentry),
      ticket_type_ids: input.ticketTypeIds
        ? JSON.stringify([...new Set(input.ticketTypeIds)])
        : door.ticket_type_ids,
      add_on_ids: input.addOnIds ? JSON.stringify([...new Set(input.addOnIds)]) : door.add_on_ids,
      sort_order: input.sortOrder ?? door.sort_order,
      ...(await changedNow(ctx)),
    };
    // Set together with the check against the people inside, in one statement: nobody can come in
    // between the check and the change.
    const changed = await updateEventRow(ctx, 'doors', door.id, 'door', changes, {
      code: 'noDoor',
      onlyIf: capacity === null ? undefined : (update) => update.where('inside', '<=', capacity),
    });
    if (!changed) {
      const inside = await insideDoor(ctx.db, door.id);
      throw problem('capacityBelowTaken', `${inside} people are inside; the capacity cannot be below that.`, {
        taken: inside,
      });
    }
    return doorView(await loadDoor(ctx, event.id, door.id));
  },
});

/**
 * A capacity is checked on the door's row, so the people inside must all be counted there. The row
 * is held FOR UPDATE first: on PostgreSQL that waits for the scans in flight at the door (each holds
 * it FOR KEY SHARE from reading the capacity, migration 0036) and keeps new ones waiting until this
 * change commits, so none adds to a slot after the slots are folded in.
 */
async function countOnTheRow(ctx: Ctx, doorId: string): Promise<void> {
  await lockingRow(ctx.db, ctx.db.selectFrom('doors').select('id').where('id', '=', doorId)).execute();
  await foldSlotsIntoDoor(ctx.db, doorId);
}
