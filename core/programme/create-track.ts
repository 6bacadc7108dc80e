import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { logChange } from '../platform/change-log';
import { textOf } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { uuid } from '../platform/schemas';
import { nextSortOrder } from '../platform/sort-order';
import { trackFields } from './programme-fields';
import { trackSchema, trackView } from './track-view';

export const createTrack = defineOperation({
  name: 'createTrack',
  title: 'Add a track',
  description:
    'Adds a track (a thread of the programme, shown in a colour) to an event: name, colour as #rrggbb, description and its place in the list. Sessions name their track. Accepts an idempotency key. Answers 409 moduleOff when the programme module is switched off. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  idempotent: true,
  extension: true,
  module: 'program',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    name: trackFields.name,
    colour: v.optional(trackFields.colour),
    description: v.optional(trackFields.description),
    sortOrder: v.optional(trackFields.sortOrder),
  }),
  output: trackSchema,
  rules(input, errors) {
    if (textOf(input.name)?.trim() === '') errors.add('name', 'The name cannot be blank.');
  },
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      colour: (input.colour ?? '#4c6ef5').toLowerCase(),
      description: input.description ?? null,
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'tracks', event.id)),
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db.insertInto('tracks').values(row).execute();
    await logChange(ctx, {
      action: 'createTrack',
      resourceType: 'track',
      resourceId: row.id,
      summary: row.name,
    });
    return trackView(row);
  },
});
