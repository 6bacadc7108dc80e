import * as v from 'valibot';
import { nameNotBlank } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { updateEventRow } from '../platform/pipeline/update-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { speakerFields } from './programme-fields';
import { speakerTag } from './programme-tags';
import { sessionIdsBySpeaker } from './speaker-sessions';
import { speakerSchema, speakerView } from './speaker-view';

export const updateSpeaker = defineOperation({
  name: 'updateSpeaker',
  title: 'Change a speaker',
  description: "Changes a speaker; an erased speaker's details cannot be set again. Needs program:write.",
  scope: 'program:write',
  effect: 'write',
  activity: { resourceType: 'speaker', resourceId: (_input, speaker) => speaker.speakerId },
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound'],
  etag: true,
  ifMatch: speakerTag,
  input: v.object({
    eventId: uuid('The event id.'),
    speakerId: uuid('The speaker id.'),
    ...changeFields(speakerFields),
  }),
  output: speakerSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held for the change by invoke (ifMatch.hold): the row is written back whole, so an erasure of the
    // speaker meanwhile is waited for and seen below, not undone.
    const speaker = await loadEventRow(ctx, 'speakers', event.id, input.speakerId, 'speaker');
    if (speaker.erased === 1)
      throw problem('invalidRequest', 'This speaker erased their data; it cannot be set again.', {
        errors: [],
      });
    const keep = <T>(sent: T | undefined, current: T) => (sent === undefined ? current : sent);
    const next = {
      ...speaker,
      name: input.name?.trim() ?? speaker.name,
      email: input.email === undefined ? speaker.email : (input.email?.toLowerCase() ?? null),
      company: keep(input.company, speaker.company),
      job_title: keep(input.jobTitle, speaker.job_title),
      bio: keep(input.bio, speaker.bio),
      photo_url: keep(input.photoUrl, speaker.photo_url),
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'speakers', speaker.id, 'speaker', next);
    const sessions = await sessionIdsBySpeaker(ctx, event.id, [speaker.id]);
    return speakerView(ctx.actor, next, sessions.get(speaker.id) ?? []);
  },
});
