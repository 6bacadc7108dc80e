import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadSubmission, submissionDetailSchema, submissionViews } from './submission-view';

export const getSubmission = defineOperation({
  name: 'getSubmission',
  title: 'Get a call-for-speakers submission',
  description:
    'Returns one call-for-speakers submission with its status history. Speaker details need people:read. Needs cfp:read.',
  scope: 'cfp:read',
  effect: 'read',
  module: 'cfp',
  problems: ['notFound'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), submissionId: uuid('The submission id.') }),
  output: submissionDetailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await loadSubmission(ctx, event.id, input.submissionId);
    const view = (await submissionViews(ctx, [row])).get(row.id)!;
    const history = await ctx.db
      .selectFrom('submission_status_changes')
      .select(['status', 'at_utc'])
      .where('submission_id', '=', row.id)
      .orderBy('at_utc')
      .orderBy('id')
      .execute();
    return { ...view, history: history.map((h) => ({ status: h.status, atUtc: h.at_utc })) };
  },
});
