import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { roomSchema, roomView } from './room-view';

export const listRooms = defineOperation({
  name: 'listRooms',
  title: 'List rooms',
  description: "Lists an event's rooms with seats and location. Needs program:read.",
  scope: 'program:read',
  effect: 'read',
  module: 'program',
  problems: [],
  input: v.object({ eventId: uuid('The event id.'), ...cursorFields }),
  output: pageOf(roomSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, { list: 'rooms', filters: { eventId: event.id } });
    const query = ctx.db.selectFrom('rooms').selectAll().where('event_id', '=', event.id);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('rooms')));
    return finishPage(ctx, plan, rows, positionOfRow, roomView);
  },
});
