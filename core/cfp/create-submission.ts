import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { FieldErrors } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { checkAgainstCall, submissionFields, writeSpeakers } from './submission-input';
import { loadSubmission, submissionDetail, submissionDetailSchema } from './submission-view';

export const createSubmission = defineOperation({
  name: 'createSubmission',
  title: 'Send a call-for-speakers submission',
  description:
    'Sends a submission (title, abstract, format, track, language, speakers and their details); it starts submitted. A speaker-facing key only while the call is open, with what it offers; the organiser any time. Needs submissions:write.',
  scope: 'submissions:write',
  effect: 'write',
  activity: {
    resourceType: 'submission',
    resourceId: (_input, submission) => submission.submissionId,
    summary: (input) => input.title,
  },
  idempotent: true,
  extension: true,
  module: 'cfp',
  etag: true,
  problems: ['callClosed'],
  input: v.object({
    eventId: uuid('The event id.'),
    title: submissionFields.title,
    abstract: submissionFields.abstract,
    format: submissionFields.format,
    trackId: v.optional(submissionFields.trackId),
    language: submissionFields.language,
    speakers: submissionFields.speakers,
  }),
  output: submissionDetailSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    await checkAgainstCall(ctx, event, input, errors);
    errors.throwIfAny();
    const stamp = await madeNow(ctx);
    const id = newId();
    await ctx.db
      .insertInto('submissions')
      .values({
        id,
        workspace_id: ctx.actor.workspaceId,
        event_id: event.id,
        title: input.title.trim(),
        abstract: input.abstract,
        format: input.format,
        track_id: input.trackId ?? null,
        language: input.language,
        status: 'submitted',
        session_id: null,
        submitted_utc: stamp.created_utc,
        decided_utc: null,
        ...stamp,
      })
      .execute();
    await writeSpeakers(ctx, id, input.speakers, stamp, () => nextChangeSeq(ctx.db));
    await ctx.db
      .insertInto('submission_status_changes')
      .values({
        workspace_id: ctx.actor.workspaceId,
        submission_id: id,
        status: 'submitted',
        at_utc: stamp.created_utc,
      })
      .execute();
    return submissionDetail(ctx, await loadSubmission(ctx, event.id, id));
  },
});
