import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { sessionIdsBySpeaker } from './speaker-sessions';
import { speakerSchema, speakerView } from './speaker-view';

export const listSpeakers = defineOperation({
  name: 'listSpeakers',
  title: 'List speakers',
  description:
    "Lists an event's speakers with their sessions; the email needs people:read. Needs program:read.",
  scope: 'program:read',
  effect: 'read',
  module: 'program',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(speakerSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'speakers', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('speakers').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('speakers')));
    const sessions = await sessionIdsBySpeaker(
      ctx,
      event.id,
      rows.map((r) => r.id),
    );
    return finishPage(ctx, plan, rows, positionOfRow, (row) =>
      speakerView(ctx.actor, row, sessions.get(row.id) ?? []),
    );
  },
});
