import * as v from 'valibot';
import { sharedRow } from '../../db/dialect';
import { nextChangeSeq } from '../../db/sequence';
import { resolveTimes } from '../events';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { loadSession } from './load-session';
import { checkCapacity, checkPlacement, refuseClash, sessionBody } from './session-input';
import { sessionSchema, sessionView } from './session-view';
import { touchSpeakers } from './speaker-sessions';

export const updateSession = defineOperation({
  name: 'updateSession',
  title: 'Change a session',
  description:
    'Changes a session; send only what changes (speakerIds replaces the list; draft false publishes a draft session). Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  repeatable: true,
  module: 'program',
  problems: ['notFound', 'clash'],
  etag: true,
  ifMatch: {
    hold: heldRow('sessions', (input) => input.sessionId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return sessionView(event, await loadSession(ctx, event, input.sessionId));
    },
  },
  activity: {
    resourceType: 'session',
    resourceId: (_input, session) => session.sessionId,
    summary: (_input, session) => session.title,
  },
  input: v.object({
    eventId: uuid('The event id.'),
    sessionId: uuid('The session id.'),
    ...v.partial(sessionBody).entries,
    draft: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'false publishes a draft session (made by accepting a submission); true takes it off the public page.',
        ),
      ),
    ),
  }),
  output: sessionSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const current = await loadSession(ctx, event, input.sessionId);

    const errors = new FieldErrors();
    if (input.title !== undefined && input.title.trim() === '')
      errors.add('title', 'The title cannot be blank.');
    const times = resolveTimes(
      input,
      event.time_zone,
      { starts: current.starts_utc, ends: current.ends_utc },
      errors,
    );
    const { room: sentRoom } = await checkPlacement(
      ctx,
      event,
      { roomId: input.roomId, trackId: input.trackId, speakerIds: input.speakerIds },
      errors,
    );
    const room =
      sentRoom !== undefined
        ? sentRoom
        : current.room_id === null
          ? null
          : ((await sharedRow(
              ctx.db,
              ctx.db.selectFrom('rooms').selectAll().where('id', '=', current.room_id),
            ).executeTakeFirst()) ?? null);
    const capacity = input.capacity === undefined ? current.capacity : input.capacity;
    if (input.capacity !== undefined || input.roomId !== undefined) checkCapacity(room, capacity, errors);
    errors.throwIfAny();

    const starts = times.starts!;
    const ends = times.ends!;
    const roomId = room?.id ?? null;
    const moved = roomId !== current.room_id || starts !== current.starts_utc || ends !== current.ends_utc;
    if (roomId && moved && !input.allowClash) await refuseClash(ctx, roomId, starts, ends, current.id);

    const before = JSON.parse(current.speaker_ids) as string[];
    const speakerIds = input.speakerIds ?? before;
    const now = ctx.clock.now().toISOString();
    await updateEventRow(ctx, 'sessions', current.id, 'session', {
      title: input.title ?? current.title,
      kind: input.kind ?? current.kind,
      summary: input.summary === undefined ? current.summary : input.summary,
      room_id: roomId,
      track_id: input.trackId === undefined ? current.track_id : input.trackId,
      starts_utc: starts,
      ends_utc: ends,
      capacity,
      language: input.language === undefined ? current.language : input.language,
      speaker_ids: JSON.stringify(speakerIds),
      draft: input.draft === undefined ? current.draft : input.draft ? 1 : 0,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    });
    // Speakers whose list of sessions changed (or, when the session moved in time, whose
    // sessions are now in another order) are marked changed for updatedSince.
    const timesChanged = starts !== current.starts_utc || ends !== current.ends_utc;
    const touched = timesChanged
      ? [...before, ...speakerIds]
      : [
          ...before.filter((id) => !speakerIds.includes(id)),
          ...speakerIds.filter((id) => !before.includes(id)),
        ];
    await touchSpeakers(ctx, event.id, touched);
    return sessionView(event, await loadSession(ctx, event, current.id));
  },
});
