import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors } from '../platform/field-errors';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { openStatuses, refuseUnlessIn } from './status-moves';
import { checkAgainstCall, submissionFields, writeSpeakers } from './submission-input';
import { loadSubmission, submissionDetail, submissionDetailSchema } from './submission-view';

export const updateSubmission = defineOperation({
  name: 'updateSubmission',
  title: 'Change a call-for-speakers submission',
  description:
    'Changes an undecided submission (draft, submitted, underReview); send only what changes; speakers replace the list. A speaker-facing key only while the call is open. Needs submissions:write.',
  scope: 'submissions:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'cfp',
  activity: { resourceType: 'submission', resourceId: (input) => input.submissionId },
  problems: ['notFound', 'callClosed', 'statusNotAllowed'],
  etag: true,
  ifMatch: {
    hold: heldRow('submissions', (input) => input.submissionId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return submissionDetail(ctx, await loadSubmission(ctx, event.id, input.submissionId));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    submissionId: uuid('The submission id.'),
    title: v.optional(submissionFields.title),
    abstract: v.optional(submissionFields.abstract),
    format: v.optional(submissionFields.format),
    trackId: v.optional(submissionFields.trackId),
    language: v.optional(submissionFields.language),
    speakers: v.optional(submissionFields.speakers),
  }),
  output: submissionDetailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const row = await loadSubmission(ctx, event.id, input.submissionId);
    refuseUnlessIn(row, openStatuses, 'it can be changed only while draft, submitted or underReview.');
    const errors = new FieldErrors();
    await checkAgainstCall(ctx, event, input, errors);
    errors.throwIfAny();
    const stamp = await changedNow(ctx);
    // Conditional on the status read: a decision taken meanwhile is not overwritten by the change.
    const changed = await ctx.db
      .updateTable('submissions')
      .set({
        title: input.title?.trim() ?? row.title,
        abstract: input.abstract ?? row.abstract,
        format: input.format ?? row.format,
        track_id: input.trackId === undefined ? row.track_id : input.trackId,
        language: input.language ?? row.language,
        ...stamp,
      })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0)
      refuseUnlessIn(await loadSubmission(ctx, event.id, row.id), [], 'it changed status meanwhile.');
    if (input.speakers)
      await writeSpeakers(ctx, row.id, input.speakers, { created_utc: stamp.updated_utc, ...stamp }, () =>
        nextChangeSeq(ctx.db),
      );
    return submissionDetail(ctx, await loadSubmission(ctx, event.id, row.id));
  },
});
