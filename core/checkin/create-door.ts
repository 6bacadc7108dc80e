import * as v from 'valibot';
import { doorKinds, toFlag } from '../../db/values';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { nextSortOrder } from '../platform/storage/sort-order';
import { checkAdmits, doorFields, holdMainEntrance, releaseMainEntrance } from './door-input';
import { doorSchema, doorView } from './door-view';

export const createDoor = defineOperation({
  name: 'createDoor',
  title: 'Add a door',
  description:
    'Adds a door (check-in list) to an in-person event: an entrance, a session door or an area. Needs events:write.',
  scope: 'events:write',
  effect: 'write',
  activity: {
    resourceType: 'door',
    resourceId: (_input, door) => door.doorId,
    summary: (_input, door) => door.name,
  },
  idempotent: true,
  extension: true,
  module: 'checkin',
  doors: true,
  problems: [],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    name: doorFields.name,
    kind: v.optional(
      v.pipe(v.picklist(doorKinds), v.description('entrance (the default), session or area.')),
    ),
    main: v.optional(doorFields.main),
    sessionId: v.optional(doorFields.sessionId),
    capacity: v.optional(doorFields.capacity),
    reentry: v.optional(doorFields.reentry),
    ticketTypeIds: v.optional(doorFields.ticketTypeIds),
    addOnIds: v.optional(doorFields.addOnIds),
    sortOrder: v.optional(doorFields.sortOrder),
  }),
  output: doorSchema,
  rules(input, errors) {
    const kind = input.kind ?? 'entrance';
    if (input.main === true && kind !== 'entrance')
      errors.add('main', 'Only an entrance can be the main entrance.');
    if (kind === 'session' && input.sessionId === undefined)
      errors.add('sessionId', 'A session door names its session.');
    if (kind !== 'session' && input.sessionId !== undefined)
      errors.add('sessionId', 'Only a session door names a session.');
    nameNotBlank(input, errors);
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const kind = input.kind ?? 'entrance';
    const errors = new FieldErrors();
    if (input.sessionId) {
      const session = await ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', input.sessionId)
        .where('event_id', '=', event.id)
        .executeTakeFirst();
      if (!session) errors.add('sessionId', `${input.sessionId} is not a session of this event.`);
    }
    await checkAdmits(ctx, event.id, input, errors);
    errors.throwIfAny();

    let main = input.main === true;
    if (kind === 'entrance' && input.main === undefined) {
      await holdMainEntrance(ctx, event.id);
      const hasMain = await ctx.db
        .selectFrom('doors')
        .select('id')
        .where('event_id', '=', event.id)
        .where('main', '=', 1)
        .executeTakeFirst();
      main = !hasMain;
    }
    if (main) await releaseMainEntrance(ctx, event.id);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      kind,
      main: toFlag(main),
      session_id: input.sessionId ?? null,
      capacity: input.capacity ?? null,
      inside: 0,
      reentry: toFlag(input.reentry ?? true),
      ticket_type_ids: JSON.stringify([...new Set(input.ticketTypeIds ?? [])]),
      add_on_ids: JSON.stringify([...new Set(input.addOnIds ?? [])]),
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'doors', event.id)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('doors').values(row).execute();
    return doorView(row);
  },
});
