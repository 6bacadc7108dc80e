import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { resolveTimes } from '../events';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { checkCapacity, checkPlacement, refuseClash, sessionBody } from './session-input';
import { sessionSchema, sessionView } from './session-view';
import { touchSpeakers } from './speaker-sessions';

export const createSession = defineOperation({
  name: 'createSession',
  title: 'Add a session',
  description:
    "Adds a session to an event's programme. An overlap in the room is refused with clash unless allowClash is true. Needs program:write.",
  scope: 'program:write',
  effect: 'write',
  activity: {
    resourceType: 'session',
    resourceId: (_input, session) => session.sessionId,
    summary: (input) => input.title,
  },
  module: 'program',
  problems: ['clash'],
  etag: true,
  idempotent: true,
  input: v.object({ eventId: uuid('The event id.'), ...sessionBody.entries }),
  output: sessionSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    if (input.title.trim() === '') errors.add('title', 'The title cannot be blank.');
    const times = resolveTimes(input, event.time_zone, { starts: null, ends: null }, errors);
    const speakerIds = input.speakerIds ?? [];
    const { room } = await checkPlacement(
      ctx,
      event,
      { roomId: input.roomId, trackId: input.trackId, speakerIds },
      errors,
    );
    checkCapacity(room ?? null, input.capacity ?? null, errors);
    errors.throwIfAny();
    const starts = times.starts!;
    const ends = times.ends!;
    if (room && !input.allowClash) await refuseClash(ctx, room.id, starts, ends, null);

    const now = ctx.clock.now().toISOString();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      title: input.title,
      summary: input.summary ?? null,
      kind: input.kind ?? 'talk',
      room_id: room?.id ?? null,
      track_id: input.trackId ?? null,
      starts_utc: starts,
      ends_utc: ends,
      capacity: input.capacity ?? null,
      language: input.language ?? null,
      join_provider: null,
      join_url: null,
      speaker_ids: JSON.stringify(speakerIds),
      draft: 0 as const,
      created_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db.insertInto('sessions').values(row).execute();
    await touchSpeakers(ctx, event.id, speakerIds);
    return sessionView(event, row);
  },
});
