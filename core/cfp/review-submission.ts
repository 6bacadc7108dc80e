// One review per reviewer and submission, changed by sending it again: the reviewer is named by
// their email address in the body, not by the calling key, because a programme committee usually
// reviews through one organiser's key or assistant. The unique index on (submission, reviewer)
// makes two reviews sent at once by the same reviewer one review, the later one winning.
import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { emailAddress, multiLine, uuid } from '../platform/schemas';
import { reviewSchema, reviewView } from './review-view';
import { refuseUnlessIn, reviewableStatuses } from './status-moves';
import { loadSubmission } from './submission-view';

export const reviewSubmission = defineOperation({
  name: 'reviewSubmission',
  title: 'Review a call-for-speakers submission',
  description:
    "Gives or changes one reviewer's review (by their email, personal data): score 1 to 5 and a comment; sent again, it changes. Only while submitted or underReview. Needs cfp:write.",
  scope: 'cfp:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'cfp',
  activity: {
    resourceType: 'submission',
    resourceId: (input) => input.submissionId,
    summary: () => 'Reviewed',
  },
  problems: ['notFound', 'statusNotAllowed'],
  etag: true,
  input: v.object({
    eventId: uuid('The event id.'),
    submissionId: uuid('The submission id.'),
    reviewer: emailAddress("The reviewer's email address: who gives the review. Personal data."),
    score: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(5),
      v.description('1 (weakest) to 5 (strongest).'),
    ),
    comment: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          multiLine,
          v.maxLength(10_000),
          v.description('What the reviewer says; null: none.'),
        ),
      ),
    ),
  }),
  output: reviewSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const submission = await loadSubmission(ctx, event.id, input.submissionId);
    refuseUnlessIn(submission, reviewableStatuses, 'it can be reviewed only while submitted or underReview.');
    const now = ctx.clock.now().toISOString();
    const reviewer = input.reviewer.toLowerCase();
    const changes = {
      score: input.score,
      comment: input.comment ?? null,
      reviewed_utc: now,
      updated_utc: now,
      change_seq: await nextChangeSeq(ctx.db),
    };
    await ctx.db
      .insertInto('submission_reviews')
      .values({
        id: newId(),
        workspace_id: ctx.actor.workspaceId,
        submission_id: submission.id,
        reviewer_email: reviewer,
        created_utc: now,
        ...changes,
      })
      .onConflict((oc) => oc.columns(['submission_id', 'reviewer_email']).doUpdateSet(changes))
      .execute();
    // The submission's rating changed with it: a client syncing submissions by updatedSince sees it.
    await ctx.db
      .updateTable('submissions')
      .set({ updated_utc: now, change_seq: await nextChangeSeq(ctx.db) })
      .where('id', '=', submission.id)
      .execute();
    const row = await ctx.db
      .selectFrom('submission_reviews')
      .selectAll()
      .where('submission_id', '=', submission.id)
      .where('reviewer_email', '=', reviewer)
      .executeTakeFirstOrThrow();
    return reviewView(ctx.actor, row);
  },
});
