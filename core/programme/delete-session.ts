import * as v from 'valibot';
import { changingRow } from '../../db/dialect';
import type { Ctx } from '../platform/context';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { loadEvent } from '../platform/pipeline/load-event';
import type { RowLock } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { deleteEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { loadSession } from './load-session';
import { sessionView } from './session-view';
import { touchSpeakers } from './speaker-sessions';

/**
 * The rows naming the session, then the session, as its removal takes them (it unlinks them first):
 * for a conditional removal's check. A lead's change takes the lead, then the session it names.
 */
async function holdNamingRowsThenSession(ctx: Ctx, input: { sessionId: string }, lock: RowLock) {
  const naming = (table: 'submissions' | 'leads', column: 'session_id' | 'attended_session_id') =>
    changingRow(
      ctx.db,
      ctx.db
        .selectFrom(table as 'leads')
        .select('id')
        .where(column as 'attended_session_id', '=', input.sessionId),
    ).execute();
  await naming('submissions', 'session_id');
  await naming('leads', 'attended_session_id');
  await heldRow('sessions', (held: typeof input) => held.sessionId)(ctx, input, lock);
}

export const deleteSession = defineOperation({
  name: 'deleteSession',
  title: 'Remove a session',
  description:
    'Removes a session; the public page drops it at once. Refused (inUse) while a door scans for it, it was rated or content names it; submissions and leads naming it lose the link only. Needs program:write.',
  scope: 'program:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound', 'inUse'],
  ifMatch: {
    hold: holdNamingRowsThenSession,
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return sessionView(event, await loadSession(ctx, event, input.sessionId));
    },
  },
  activity: { resourceType: 'session', resourceId: (_input, removed) => removed.sessionId },
  input: v.object({ eventId: uuid('The event id.'), sessionId: uuid('The session id.') }),
  output: v.object({ sessionId: uuid('The session removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const found = await loadSession(ctx, event, input.sessionId);
    // Submissions that became this session keep their decision, and leads that came from it their
    // visitor; both lose the link (stamped, so syncs see it go). Rows naming the session before the
    // session, as a lead's change takes the lead, then the session it names.
    await ctx.db
      .updateTable('submissions')
      .set({ session_id: null, ...(await changedNow(ctx)) })
      .where('session_id', '=', found.id)
      .execute();
    await ctx.db
      .updateTable('leads')
      .set({ attended_session_id: null, ...(await changedNow(ctx)) })
      .where('attended_session_id', '=', found.id)
      .execute();
    // Then its row, held by invoke (FOR UPDATE, after the rows above) before its uses are counted: a
    // rating, a door or content written now holds the session as its foreign key does, so this waits for
    // it and counts it, instead of removing the session with it. A refusal undoes the unlinking above with
    // the call.
    const session = await loadSession(ctx, event, found.id);
    const ids = async (table: 'doors' | 'session_ratings' | 'published_content') =>
      (await ctx.db.selectFrom(table).select('id').where('session_id', '=', session.id).execute()).map((r) =>
        String(r.id),
      );
    // Scans and ratings are what happened there: the organiser decides about them, not a removal.
    refuseWhileUsed(
      `The session "${session.title}"`,
      [
        dependentsOf('door', await ids('doors')),
        dependentsOf('rating', await ids('session_ratings')),
        dependentsOf('content', await ids('published_content')),
      ],
      'remove or repoint the doors and content first; a rated session stays in the programme.',
    );
    await deleteEventRow(ctx, 'sessions', session.id, 'session');
    await touchSpeakers(ctx, event.id, JSON.parse(session.speaker_ids) as string[]);
    return { sessionId: session.id, deleted: true as const };
  },
});
