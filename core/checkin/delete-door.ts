import * as v from 'valibot';
import { lockingRow } from '../../db/dialect';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { doorTag } from './door-tag';
import { loadDoor } from './load-door';

export const deleteDoor = defineOperation({
  name: 'deleteDoor',
  title: 'Remove a door',
  description:
    'Removes a door nobody was scanned at; once it has scans it is refused (inUse, naming how many): they are the record of who came in. Needs events:write.',
  scope: 'events:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'checkin',
  doors: true,
  problems: ['noDoor', 'inUse'],
  ifMatch: doorTag,
  activity: { resourceType: 'door', resourceId: (_input, removed) => removed.doorId },
  input: v.object({ eventId: uuid('The event id.'), doorId: uuid('The door id.') }),
  output: v.object({ doorId: uuid('The door removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const door = await loadDoor(ctx, event.id, input.doorId);
    // The door's row locked first (FOR UPDATE): a scan writing at it holds it as its foreign keys do,
    // so this waits for the scan and counts it below, instead of removing the door with it.
    await lockingRow(ctx.db, ctx.db.selectFrom('doors').select('id').where('id', '=', door.id)).execute();
    const scans = await ctx.db.selectFrom('check_ins').select('id').where('door_id', '=', door.id).execute();
    refuseWhileUsed(
      `The door ${door.name}`,
      [
        dependentsOf(
          'scan',
          scans.map((s) => String(s.id)),
        ),
      ],
      'keep it, or rename it; its scans stay in the check-in history.',
    );
    await deleteEventRow(ctx, 'doors', door.id, 'door', 'noDoor');
    return { doorId: door.id, deleted: true as const };
  },
});
