import * as v from 'valibot';
import { submissionStatuses } from '../../db/values';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { draftSessionInput, dropDraftSession, makeDraftSession, planDraftSession } from './draft-session';
import { moveStatus, statusMoves } from './status-moves';
import { loadSubmission, submissionDetail, submissionDetailSchema } from './submission-view';

export const changeSubmissionStatus = defineOperation({
  name: 'changeSubmissionStatus',
  title: 'Move a submission to another status',
  description:
    'Moves a submission along its transition table (refused naming its status otherwise). Accepting with a session time makes a draft programme session with its speakers; withdrawing removes a draft one. Needs cfp:write.',
  scope: 'cfp:write',
  effect: 'write',
  extension: true,
  module: 'cfp',
  activity: {
    resourceType: 'submission',
    resourceId: (input) => input.submissionId,
    summary: (input) => `Moved to ${input.status}`,
  },
  problems: ['notFound', 'statusNotAllowed', 'sessionPublished', 'clash'],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    submissionId: uuid('The submission id.'),
    status: v.pipe(
      v.picklist(submissionStatuses.filter((s) => s !== 'draft')),
      v.description('submitted, underReview, accepted, waitlisted, rejected or withdrawn.'),
    ),
    session: v.optional(draftSessionInput),
  }),
  output: submissionDetailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await loadSubmission(ctx, event.id, input.submissionId);
    const errors = new FieldErrors();
    if (input.session && input.status !== 'accepted')
      errors.add('session', 'A session is made only when the submission is accepted.');
    const plan = input.session ? await planDraftSession(ctx, event, input.session, errors) : null;
    errors.throwIfAny();
    if (statusMoves[row.status].includes(input.status)) {
      if (input.status === 'withdrawn') await dropDraftSession(ctx, row);
      const sessionId = plan ? await makeDraftSession(ctx, event, row, plan) : null;
      await moveStatus(ctx, row, input.status, sessionId);
    } else await moveStatus(ctx, row, input.status);
    return submissionDetail(ctx, await loadSubmission(ctx, event.id, row.id));
  },
});
