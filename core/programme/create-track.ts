import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { nextSortOrder } from '../platform/storage/sort-order';
import { trackFields } from './programme-fields';
import { trackSchema, trackView } from './track-view';

export const createTrack = defineOperation({
  name: 'createTrack',
  title: 'Add a track',
  description:
    'Adds a track (a thread of the programme, shown in a colour) to an event. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  activity: {
    resourceType: 'track',
    resourceId: (_input, track) => track.trackId,
    summary: (_input, track) => track.name,
  },
  idempotent: true,
  extension: true,
  module: 'program',
  problems: [],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(trackFields, ['name']),
  }),
  output: trackSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      colour: (input.colour ?? '#4c6ef5').toLowerCase(),
      description: input.description ?? null,
      sort_order: input.sortOrder ?? (await nextSortOrder(ctx, 'tracks', event.id)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('tracks').values(row).execute();
    return trackView(row);
  },
});
