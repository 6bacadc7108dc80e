import * as v from 'valibot';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { contentApiSchema, contentApiView } from './content-view';

export const listContent = defineOperation({
  name: 'listContent',
  title: 'List published content',
  description:
    'Lists what is published for an event and its sessions (slides, recordings, articles, photos), oldest change first; filter by session. Needs program:read.',
  scope: 'program:read',
  effect: 'read',
  extension: true,
  module: 'program',
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    sessionId: v.optional(uuid('Only the content of this session.')),
    ...cursorFields,
  }),
  output: pageOf(contentApiSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'content',
      filters: { eventId: event.id, sessionId: input.sessionId },
    });
    let query = ctx.db.selectFrom('published_content').selectAll().where('event_id', '=', event.id);
    if (input.sessionId) query = query.where('session_id', '=', input.sessionId);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('published_content')));
    return finishPage(ctx, plan, rows, positionOfRow, contentApiView);
  },
});
