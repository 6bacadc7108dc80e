import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { speakerFields } from './programme-fields';
import { speakerSchema, speakerView } from './speaker-view';

export const createSpeaker = defineOperation({
  name: 'createSpeaker',
  title: 'Add a speaker',
  description: 'Adds a speaker to an event; sessions name speakers by id. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  activity: { resourceType: 'speaker', resourceId: (_input, speaker) => speaker.speakerId },
  idempotent: true,
  extension: true,
  module: 'program',
  problems: [],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(speakerFields, ['name']),
  }),
  output: speakerSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      email: input.email?.toLowerCase() ?? null,
      company: input.company ?? null,
      job_title: input.jobTitle ?? null,
      bio: input.bio ?? null,
      photo_url: input.photoUrl ?? null,
      erased: 0 as const,
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('speakers').values(row).execute();
    return speakerView(ctx.actor, row, []);
  },
});
