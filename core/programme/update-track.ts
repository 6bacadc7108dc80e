import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { trackFields } from './programme-fields';
import { trackTag } from './programme-tags';
import { trackSchema, trackView } from './track-view';

export const updateTrack = defineOperation({
  name: 'updateTrack',
  title: 'Change a track',
  description: 'Changes a track; send only what changes. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  activity: { resourceType: 'track', resourceId: (_input, track) => track.trackId },
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound'],
  etag: true,
  ifMatch: trackTag,
  input: v.object({
    eventId: uuid('The event id.'),
    trackId: uuid('The track id.'),
    ...changeFields(trackFields),
  }),
  output: trackSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const track = await loadEventRow(ctx, 'tracks', event.id, input.trackId, 'track');
    const next = {
      ...track,
      name: input.name?.trim() ?? track.name,
      colour: input.colour?.toLowerCase() ?? track.colour,
      description: input.description === undefined ? track.description : input.description,
      sort_order: input.sortOrder ?? track.sort_order,
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'tracks', track.id, 'track', next);
    return trackView(next);
  },
});
