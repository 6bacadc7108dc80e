import * as v from 'valibot';
import { loadEvent } from '../platform/load-event';
import { defineOperation } from '../platform/operation';
import { uuid } from '../platform/schemas';
import { loadSession } from './load-session';
import { sessionSchema, sessionView } from './session-view';

export const getSession = defineOperation({
  name: 'getSession',
  title: 'Get a session',
  description:
    'Returns one programme session with its room, track, times (UTC and venue time), seats, language and speakers in order; an online session names its streaming service but never the join link. Answers 404 eventNotFound or notFound, and 409 moduleOff when the programme module is switched off. Over REST it carries an ETag for If-None-Match. Needs program:read.',
  scope: 'program:read',
  effect: 'read',
  module: 'program',
  problems: ['notFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), sessionId: uuid('The session id.') }),
  output: sessionSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return sessionView(event, await loadSession(ctx, event, input.sessionId));
  },
});
