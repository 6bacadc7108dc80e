import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { sessionSchema, sessionView } from './session-view';

export const listSessions = defineOperation({
  name: 'listSessions',
  title: 'List sessions',
  description:
    "Lists an event's programme sessions with room, track, times, seats and speakers (never a join link). Needs program:read.",
  scope: 'program:read',
  effect: 'read',
  module: 'program',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(sessionSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'sessions', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('sessions').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('sessions')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => sessionView(event, row));
  },
});
