import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadSession } from './load-session';
import { sessionSchema, sessionView } from './session-view';

export const getSession = defineOperation({
  name: 'getSession',
  title: 'Get a session',
  description:
    'Returns one programme session with room, track, times, seats and speakers (never a join link). Needs program:read.',
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
