// The speaker takes their submission back. Sent again, it answers the withdrawn submission: the
// speaker-facing site may retry safely.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { dropDraftSession } from './draft-session';
import { moveStatus } from './status-moves';
import { loadSubmission, submissionDetail, submissionDetailSchema } from './submission-view';

export const withdrawSubmission = defineOperation({
  name: 'withdrawSubmission',
  title: 'Withdraw a call-for-speakers submission',
  description:
    'Withdraws a submission (not a rejected one); sent again, answers it as it is. An accepted one loses its draft session; refused while its session is published. Needs submissions:write.',
  scope: 'submissions:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'cfp',
  activity: {
    resourceType: 'submission',
    resourceId: (input) => input.submissionId,
    summary: () => 'Withdrawn',
  },
  problems: ['notFound', 'statusNotAllowed', 'sessionPublished'],
  etag: true,
  input: v.object({ eventId: uuid('The event id.'), submissionId: uuid('The submission id.') }),
  output: submissionDetailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await loadSubmission(ctx, event.id, input.submissionId);
    if (row.status !== 'withdrawn') {
      await dropDraftSession(ctx, row);
      await moveStatus(ctx, row, 'withdrawn');
    }
    return submissionDetail(ctx, await loadSubmission(ctx, event.id, row.id));
  },
});
