import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { loadSubmission, submissionDetail, submissionDetailSchema } from './submission-view';

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
    return submissionDetail(ctx, row);
  },
});
